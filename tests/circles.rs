//! No two modules of one folder import each other, directly or round a ring.
//!
//! `tests/layers.rs` orders the crate's top-level modules; inside a folder nothing did,
//! and files came to lean on each other both ways (`serve/routes.rs` listed the handlers
//! and was their helper library too), so that neither could be read, moved or tested
//! without the other. This test reads every path in `src/` (`crate::`, `super::` and
//! `self::` paths, `use` groups expanded), resolves it to the module it names and, in
//! each folder, draws an edge from the sibling that holds the path to the sibling it
//! reaches. A sibling is a file, or a folder with everything in it (`serve/live.rs` and
//! `serve/live/`). A ring of edges fails the test, with the places that make it.
//!
//! A module and its own children are not siblings: `mod.rs` re-exporting its children
//! and a child using its parent's items is how a module is built. Tests may use any
//! module (`tests.rs` files and inline `mod tests`), and comments are left out (an
//! intra-doc link may point anywhere).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

mod sources;

use sources::{rust_files, source_dir, without_comment};

/// The module a file holds, as the path from the crate's root: `serve/live/speed.rs` is
/// `serve::live::speed`, `serve/mod.rs` and `serve.rs` are `serve`, `lib.rs` and
/// `main.rs` the root.
fn module_of(relative: &Path) -> Vec<String> {
    let mut segments: Vec<String> = relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    let file = segments.pop().unwrap();
    let stem = file.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        segments.push(stem.to_string());
    }
    segments
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every path that starts at `start` in `code`, its groups expanded: `super::{a, b::{c,
/// d}}` is `super::a`, `super::b::c` and `super::b::d`.
fn expand(code: &[char], at: &mut usize, prefix: Vec<String>, paths: &mut Vec<Vec<String>>) {
    let skip_blanks = |at: &mut usize| {
        while *at < code.len() && code[*at].is_whitespace() {
            *at += 1;
        }
    };
    let mut path = prefix;
    loop {
        skip_blanks(at);
        match code.get(*at) {
            Some('{') => {
                *at += 1;
                loop {
                    skip_blanks(at);
                    match code.get(*at) {
                        Some('}') => {
                            *at += 1;
                            return;
                        }
                        Some(',') => *at += 1,
                        Some(_) => {
                            let before = *at;
                            expand(code, at, path.clone(), paths);
                            if *at == before {
                                // Not a path (a stray character): step over it.
                                *at += 1;
                            }
                        }
                        None => return,
                    }
                }
            }
            Some('*') => {
                *at += 1;
                paths.push(path);
                return;
            }
            Some(&c) if is_name_char(c) => {
                let start = *at;
                while *at < code.len() && is_name_char(code[*at]) {
                    *at += 1;
                }
                let name: String = code[start..*at].iter().collect();
                if name != "self" || path.is_empty() {
                    path.push(name);
                }
                if code[*at..].starts_with(&[':', ':']) {
                    *at += 2;
                    continue;
                }
                // `name as alias`: the alias names nothing new.
                let mut after = *at;
                while after < code.len() && code[after].is_whitespace() {
                    after += 1;
                }
                if code[after..].starts_with(&['a', 's'])
                    && code.get(after + 2).is_some_and(|c| c.is_whitespace())
                {
                    *at = after + 2;
                    skip_blanks(at);
                    while *at < code.len() && is_name_char(code[*at]) {
                        *at += 1;
                    }
                }
                paths.push(path);
                return;
            }
            _ => {
                paths.push(path);
                return;
            }
        }
    }
}

/// The `crate::`, `super::` and `self::` paths of `code`, each with its line.
fn paths_in(code: &str) -> Vec<(usize, Vec<String>)> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut line = 1;
    for at in 0..chars.len() {
        if chars[at] == '\n' {
            line += 1;
            continue;
        }
        let starts_path = ["crate::", "super::", "self::"].iter().any(|start| {
            let start: Vec<char> = start.chars().collect();
            chars[at..].starts_with(&start)
        });
        // The first segment only: not `x::super::` (a chain) and not `mycrate::`.
        let preceded = at > 0 && (is_name_char(chars[at - 1]) || chars[at - 1] == ':');
        if starts_path && !preceded {
            let mut paths = Vec::new();
            let mut cursor = at;
            expand(&chars, &mut cursor, Vec::new(), &mut paths);
            found.extend(paths.into_iter().map(|path| (line, path)));
        }
    }
    found
}

/// `path` (from a file whose module is `module`, inside `inline` levels of inline
/// `mod name { .. }`) from the crate's root; `None` when it climbs above the root.
fn resolve(module: &[String], inline: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut here: Vec<String> = module.iter().chain(inline).cloned().collect();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            here.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        _ => {}
    }
    while rest.first().is_some_and(|segment| segment == "super") {
        here.pop()?;
        rest = &rest[1..];
    }
    here.extend(rest.iter().cloned());
    Some(here)
}

/// One import of a sibling module by another: `from` and `to` are modules of the same
/// folder (a file, or a folder with everything in it).
#[derive(Debug, Clone)]
struct Edge {
    folder: String,
    from: String,
    to: String,
    place: String,
}

/// Whether a file holds only tests (`tests.rs`, or anything under a `tests/` folder).
fn is_test_file(relative: &Path) -> bool {
    relative.file_name().is_some_and(|name| name == "tests.rs")
        || relative.components().any(|part| part.as_os_str() == "tests")
}

/// Every import of one module by a sibling, outside tests: from the file that holds the
/// path, the sibling it is in, to the sibling the path reaches.
fn sibling_edges() -> Vec<Edge> {
    let src = source_dir();
    let files = rust_files(&src);
    let modules: BTreeSet<Vec<String>> = files
        .iter()
        .map(|file| module_of(file.strip_prefix(&src).unwrap()))
        .collect();
    let mut edges = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        if is_test_file(relative) {
            continue;
        }
        let module = module_of(relative);
        let text = std::fs::read_to_string(file).unwrap();
        // Every line but those of inline test modules (`#[cfg(test)] mod tests { .. }`:
        // tests may use anything), each with the inline modules it is in (a top-level
        // `mod x86 { .. }`, closed by a `}` at the start of a line), for `super::`.
        let mut code = String::new();
        let mut inline_of_line: Vec<Vec<String>> = vec![Vec::new()];
        let (mut inline, mut in_test, mut after_cfg_test) = (Vec::new(), false, false);
        for line in text.lines().map(without_comment) {
            let declaration = line.strip_prefix("pub ").unwrap_or(line);
            if let Some(name) = declaration
                .strip_prefix("mod ")
                .and_then(|rest| rest.trim_end().strip_suffix('{'))
            {
                in_test = after_cfg_test;
                inline = vec![name.trim().to_string()];
            } else if line.starts_with('}') {
                (inline, in_test) = (Vec::new(), false);
            }
            after_cfg_test = line.trim() == "#[cfg(test)]";
            code.push_str(if in_test { "" } else { line });
            code.push('\n');
            inline_of_line.push(inline.clone());
        }
        for (line, path) in paths_in(&code) {
            let Some(target) = resolve(&module, &inline_of_line[line], &path) else {
                continue;
            };
            let shared = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if shared >= module.len() || shared >= target.len() {
                // The file's own module or one inside it, or one of its ancestors.
                continue;
            }
            let mut sibling = module[..shared].to_vec();
            sibling.push(target[shared].clone());
            if modules.contains(&sibling) {
                edges.push(Edge {
                    folder: format!("src/{}", module[..shared].join("/")),
                    from: module[shared].clone(),
                    to: target[shared].clone(),
                    place: format!("src/{}:{line}", relative.display()),
                });
            }
        }
    }
    edges
}

/// The rings of `edges` (one folder's): each strongly connected set of more than one
/// module, by Tarjan's algorithm.
fn rings(edges: &[Edge]) -> Vec<BTreeSet<String>> {
    let mut next: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for edge in edges {
        next.entry(&edge.from).or_default().insert(&edge.to);
        next.entry(&edge.to).or_default();
    }
    struct Walk<'a> {
        next: &'a BTreeMap<&'a str, BTreeSet<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(walk: &mut Walk<'a>, node: &'a str) {
        let order = walk.index.len();
        walk.index.insert(node, order);
        walk.low.insert(node, order);
        walk.stack.push(node);
        walk.on_stack.insert(node);
        for &to in &walk.next[node] {
            if !walk.index.contains_key(to) {
                visit(walk, to);
                let low = walk.low[node].min(walk.low[to]);
                walk.low.insert(node, low);
            } else if walk.on_stack.contains(to) {
                let low = walk.low[node].min(walk.index[to]);
                walk.low.insert(node, low);
            }
        }
        if walk.low[node] == walk.index[node] {
            let mut ring = BTreeSet::new();
            while let Some(top) = walk.stack.pop() {
                walk.on_stack.remove(top);
                ring.insert(top.to_string());
                if top == node {
                    break;
                }
            }
            if ring.len() > 1 {
                walk.found.push(ring);
            }
        }
    }
    let mut walk = Walk {
        next: &next,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for &node in next.keys() {
        if !walk.index.contains_key(node) {
            visit(&mut walk, node);
        }
    }
    walk.found
}

#[test]
fn no_two_modules_of_a_folder_import_each_other() {
    let mut by_folder: BTreeMap<String, Vec<Edge>> = BTreeMap::new();
    for edge in sibling_edges() {
        by_folder.entry(edge.folder.clone()).or_default().push(edge);
    }
    let mut circles = Vec::new();
    for (folder, edges) in &by_folder {
        for ring in rings(edges) {
            let mut places: Vec<String> = edges
                .iter()
                .filter(|edge| ring.contains(&edge.from) && ring.contains(&edge.to))
                .map(|edge| format!("  {} -> {} at {}", edge.from, edge.to, edge.place))
                .collect();
            places.dedup();
            circles.push(format!(
                "in {folder}: {}\n{}",
                ring.iter().cloned().collect::<Vec<_>>().join(", "),
                places.join("\n")
            ));
        }
    }
    assert!(
        circles.is_empty(),
        "modules of one folder that import each other (move what both need into one of them, \
         or into a third):\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_reader_resolves_paths_in_every_form() {
    let code = "use super::{jobs::Job, live::{self, LiveRun as Run}, *};\nlet x = crate::serve::request::Speed::Full;\nuse super::super::routes::find;\n";
    let paths: Vec<(usize, String)> = paths_in(code)
        .into_iter()
        .map(|(line, path)| (line, path.join("::")))
        .collect();
    assert_eq!(
        paths,
        [
            (1, "super::jobs::Job".to_string()),
            (1, "super::live".to_string()),
            (1, "super::live::LiveRun".to_string()),
            (1, "super".to_string()),
            (2, "crate::serve::request::Speed::Full".to_string()),
            (3, "super::super::routes::find".to_string()),
        ]
    );
    let module = ["serve".to_string(), "live".to_string(), "speed".to_string()];
    let path: Vec<String> = ["super", "super", "routes", "find"].map(String::from).to_vec();
    assert_eq!(resolve(&module, &[], &path).unwrap(), ["serve", "routes", "find"]);
    // Inside an inline `mod tests`, `super` is the file's own module.
    let path: Vec<String> = ["super", "Speed"].map(String::from).to_vec();
    assert_eq!(
        resolve(&module, &["tests".to_string()], &path).unwrap(),
        ["serve", "live", "speed", "Speed"]
    );
    assert_eq!(module_of(Path::new("serve/mod.rs")), ["serve"]);
    assert_eq!(module_of(Path::new("serve/live.rs")), ["serve", "live"]);
    // A ring of three is found, and a chain is not a ring.
    let edge = |from: &str, to: &str| Edge {
        folder: String::new(),
        from: from.to_string(),
        to: to.to_string(),
        place: String::new(),
    };
    let ring = rings(&[edge("a", "b"), edge("b", "c"), edge("c", "a"), edge("c", "d")]);
    assert_eq!(ring, [BTreeSet::from(["a", "b", "c"].map(String::from))]);
    assert!(rings(&[edge("a", "b"), edge("b", "c")]).is_empty());
}
