//! What `relief bench` reads and writes, and how it judges: route files a game logged
//! ([`route_file`], replayed by `--route`, written by `relief demo --record`), the results
//! report ([`report`], `--json`, read back as a `--compare` baseline), the figures it holds and
//! which of them are gated ([`figures`]), and the comparison rule ([`compare`]). The runs
//! themselves are the command's (`src/bin/relief/bench`); what parses a file a user hands in
//! lives here, where `fuzz/` reaches it.

pub mod compare;
pub mod figures;
pub mod report;
pub mod route_file;
