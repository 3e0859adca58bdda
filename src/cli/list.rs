//! `shuffle-audit list`: the catalogue of algorithms, samplers, stream generators and
//! sources, as text or JSON (rendered in `output::text::catalogue` and
//! `output::json::catalogue`).

use std::process::ExitCode;

use clap::Args;

use shuffle_audit::Result;
use shuffle_audit::files::Destination;
use shuffle_audit::output::json::catalogue as catalogue_json;
use shuffle_audit::output::text::catalogue as catalogue_text;

#[derive(Args)]
pub struct ListArgs {
    /// Print the catalogue as JSON.
    #[arg(long)]
    json: bool,
}

/// Prints the catalogue.
pub fn execute(args: &ListArgs) -> Result<ExitCode> {
    let out = if args.json {
        catalogue_json::render()
    } else {
        catalogue_text::render()
    };
    Destination::Stdout.write(&out)?;
    Ok(ExitCode::SUCCESS)
}
