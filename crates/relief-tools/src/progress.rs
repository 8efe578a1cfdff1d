//! Progress of long steps (bake, import, export): the CLI draws bars, tests pass [`Silent`].

/// Reports progress of long steps.
pub trait Progress: Sync {
    fn start(&self, step: &str, total: u64);
    fn inc(&self, n: u64);
    fn finish(&self);
}

pub struct Silent;
impl Progress for Silent {
    fn start(&self, _: &str, _: u64) {}
    fn inc(&self, _: u64) {}
    fn finish(&self) {}
}
