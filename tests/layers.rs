//! The library's modules form layers, and no import reaches up.
//!
//! `src/lib.rs` documents the layers as a list, top first (the block under "Layers").
//! This test reads that list, reads every `crate::` path (and every `super::` path that
//! climbs out of its top-level module) in the library's sources, and fails when a module
//! imports one listed above it or on its own line's level, or when a module of the crate
//! is missing from the list. A strict order admits no circle, so a new import circle
//! fails here with the import that closes it.
//!
//! Comments are left out (an intra-doc link may point anywhere); the binary (`src/main.rs`
//! and `src/cli/`) sits above the whole library and is not checked.
//!
//! One layout holds for every module with submodules, so that a newcomer knows where a
//! module's root is: a file beside the folder of the same name (`serve.rs` and
//! `serve/`), never `mod.rs`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod sources;

use sources::{rust_files, source_dir, without_comment};

/// One import of one top-level module by another.
#[derive(Debug)]
struct Import {
    from: String,
    to: String,
    /// `src/...:line`, for the message.
    place: String,
}

/// The layers from `src/lib.rs`'s docs, top first: the first word of each line of the
/// text block under the "Layers" heading.
fn documented_layers(lib: &str) -> Vec<String> {
    let docs: Vec<&str> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect();
    let heading = docs
        .iter()
        .position(|line| line.starts_with('#') && line.contains("Layers"))
        .expect("src/lib.rs's docs have a \"Layers\" heading");
    let start = heading
        + docs[heading..]
            .iter()
            .position(|line| line.starts_with("```"))
            .expect("the Layers heading is followed by a text block")
        + 1;
    docs[start..]
        .iter()
        .take_while(|line| !line.starts_with("```"))
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// The top-level modules `src/lib.rs` declares.
fn declared_modules(lib: &str) -> BTreeSet<String> {
    lib.lines()
        .map(str::trim)
        .filter_map(|line| {
            let line = line.strip_prefix("pub ").unwrap_or(line);
            line.strip_prefix("mod ")?.strip_suffix(';').map(str::to_string)
        })
        .collect()
}

/// The first segment of each path in a `{...}` group (the text after the brace),
/// nested groups skipped.
fn group_heads(group: &str) -> Vec<String> {
    let (mut heads, mut depth, mut current, mut at_head) = (Vec::new(), 0, String::new(), true);
    for c in group.chars() {
        match c {
            '{' => {
                depth += 1;
                at_head = false;
            }
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                heads.push(std::mem::take(&mut current));
                at_head = true;
            }
            c if at_head && (c.is_alphanumeric() || c == '_') => current.push(c),
            c if at_head && !current.is_empty() && !c.is_whitespace() => at_head = false,
            _ => {}
        }
    }
    heads.push(current);
    heads.retain(|head| !head.is_empty());
    heads
}

/// The top-level modules named right after each `crate::` in `code`.
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let line = code[..at].matches('\n').count() + 1;
        if let Some(group) = rest.strip_prefix('{') {
            found.extend(group_heads(group).into_iter().map(|head| (line, head)));
        } else {
            let head: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.push((line, head));
        }
    }
    found
}

/// How deep a file's module is: `src/run.rs` and `src/exact/mod.rs` are 1, `src/exact/check.rs` 2.
fn depth(relative: &Path) -> usize {
    let parts = relative.components().count();
    if relative.file_name().is_some_and(|name| name == "mod.rs") {
        parts - 1
    } else {
        parts
    }
}

/// The top-level modules reached by `super::` paths that climb out of the file's own
/// top-level module.
fn escaping_super_paths(code: &str, depth: usize) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("super::") {
        // Count each chain once, from its first `super::`.
        if code[..at].ends_with("super::") {
            continue;
        }
        let mut rest = &code[at..];
        let mut climbs = 0;
        while let Some(after) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = after;
        }
        if climbs >= depth {
            let head: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.push((code[..at].matches('\n').count() + 1, head));
        }
    }
    found
}

/// Every import of one top-level module of the library by another.
fn imports(modules: &BTreeSet<String>) -> Vec<Import> {
    let src = source_dir();
    let mut imports = Vec::new();
    for file in rust_files(&src) {
        let relative = file.strip_prefix(&src).unwrap().to_path_buf();
        let first = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let from = first.trim_end_matches(".rs").to_string();
        if !modules.contains(&from) {
            // lib.rs, and the binary: main.rs and cli/.
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code: String = text
            .lines()
            .map(|line| format!("{}\n", without_comment(line)))
            .collect();
        let mut named = crate_paths(&code);
        named.extend(escaping_super_paths(&code, depth(&relative)));
        for (line, to) in named {
            if to != from && modules.contains(&to) {
                imports.push(Import {
                    from: from.clone(),
                    to,
                    place: format!("src/{}:{line}", relative.display()),
                });
            }
        }
    }
    imports
}

#[test]
fn every_module_is_in_the_documented_layers() {
    let lib = std::fs::read_to_string(source_dir().join("lib.rs")).unwrap();
    let layers = documented_layers(&lib);
    let listed: BTreeSet<String> = layers.iter().cloned().collect();
    assert_eq!(listed.len(), layers.len(), "a module is listed twice: {layers:?}");
    let declared = declared_modules(&lib);
    assert_eq!(
        listed, declared,
        "src/lib.rs's Layers list and its `mod` declarations differ: place every module in the list"
    );
}

#[test]
fn no_module_imports_one_above_it() {
    let lib = std::fs::read_to_string(source_dir().join("lib.rs")).unwrap();
    let layers = documented_layers(&lib);
    // Top first: a module may import only those after it in the list.
    let rank = |module: &str| layers.iter().position(|listed| listed == module);
    let modules = declared_modules(&lib);
    let upward: Vec<String> = imports(&modules)
        .into_iter()
        .filter(|import| match (rank(&import.from), rank(&import.to)) {
            (Some(from), Some(to)) => to <= from,
            // Unlisted modules fail the other test.
            _ => false,
        })
        .map(|import| format!("{}: {} imports {}", import.place, import.from, import.to))
        .collect();
    assert!(
        upward.is_empty(),
        "imports that reach up the layers of src/lib.rs (move the helper down, or the module):\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_reader_finds_imports_in_every_form() {
    let code = "use crate::stats::Fit;\nuse crate::{\n    analysis::{TestOutcome, caught_by},\n    run,\n};\nlet x = crate::tally::MAX_N;\n";
    let heads: Vec<String> = crate_paths(code).into_iter().map(|(_, head)| head).collect();
    assert_eq!(heads, ["stats", "analysis", "run", "tally"]);
    assert_eq!(crate_paths(code)[3].0, 6);
    let climbing = "use super::super::output::text;\nuse super::x;\n";
    let escaping: Vec<String> = escaping_super_paths(climbing, 2)
        .into_iter()
        .map(|(_, head)| head)
        .collect();
    assert_eq!(escaping, ["output"]);
    assert_eq!(depth(Path::new("exact/mod.rs")), 1);
    assert_eq!(depth(Path::new("exact/check.rs")), 2);
    assert_eq!(
        without_comment("use crate::run; // crate::output"),
        "use crate::run; "
    );
}

#[test]
fn every_module_root_is_a_file_beside_its_folder() {
    let src = source_dir();
    let roots_in_folders: Vec<String> = rust_files(&src)
        .into_iter()
        .filter(|file| file.file_name().is_some_and(|name| name == "mod.rs"))
        .map(|file| file.strip_prefix(&src).unwrap().display().to_string())
        .collect();
    assert!(
        roots_in_folders.is_empty(),
        "modules rooted in a mod.rs (move each to the file beside its folder, foo/mod.rs to foo.rs): {roots_in_folders:?}"
    );
    // And every folder of modules has its root file beside it.
    fn folders(dir: &Path) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let holds_rust = path.is_dir()
                && std::fs::read_dir(&path).unwrap().any(|entry| {
                    entry
                        .unwrap()
                        .path()
                        .extension()
                        .is_some_and(|extension| extension == "rs")
                });
            if path.is_dir() {
                found.extend(folders(&path));
                if holds_rust {
                    found.push(path);
                }
            }
        }
        found
    }
    let rootless: Vec<String> = folders(&src)
        .into_iter()
        .filter(|folder| !folder.with_extension("rs").is_file())
        .map(|folder| folder.strip_prefix(&src).unwrap().display().to_string())
        .collect();
    assert!(
        rootless.is_empty(),
        "folders of modules with no file of their name beside them: {rootless:?}"
    );
}
