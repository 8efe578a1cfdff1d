//! What a streamer streams. The streamer knows nothing of grids, regions or planets: it asks
//! the source which keys lie near the focus, how far each is, and how to load one.

use glam::DVec3;
use std::fmt::Debug;
use std::hash::Hash;

use crate::error::LoadPanic;

pub trait Source: Send + Sync + 'static {
    /// Names one loadable piece (a region location, a planet tile).
    type Key: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The loaded piece; shared read-only with query threads.
    type Item: Send + Sync + 'static;
    /// Why a load failed. `From<LoadPanic>`: a load that panics becomes an error like any
    /// other (a Failed event, retried by policy), not a job stuck in flight forever.
    type Error: std::error::Error + From<LoadPanic> + Send + Sync + 'static;

    /// Appends to `out` every key whose distance from `focus` is at most `radius`, with that
    /// distance. Called on the main thread: must not do I/O, and should not allocate beyond
    /// `out`'s capacity.
    fn keys_within(&self, focus: DVec3, radius: f64, out: &mut Vec<(Self::Key, f64)>);

    /// Distance from `focus` to the nearest point of `key`'s piece (0 inside it), metres.
    fn distance(&self, key: Self::Key, focus: DVec3) -> f64;

    /// At most how much any key's [`distance`](Source::distance) can change when the focus
    /// moves from `from` to `to`, metres. The streamer plans again only once the focus has
    /// moved as far as the nearest key lies from either radius (or a load finished, a retry
    /// fell due, or the budget trims), so a walking focus re-plans a few times a second, not
    /// every frame. The default, infinity, plans every update; a source whose distance is
    /// planar distance to a square returns the planar distance moved.
    fn moved(&self, _from: DVec3, _to: DVec3) -> f64 {
        f64::INFINITY
    }

    /// Bytes the item will occupy once loaded, known before it is read (for the budget).
    fn estimate_bytes(&self, key: Self::Key) -> usize;

    /// Bytes a loaded item occupies.
    fn item_bytes(item: &Self::Item) -> usize;

    /// Reads and decodes one piece. Runs on a worker thread.
    fn load(&self, key: Self::Key) -> Result<Self::Item, Self::Error>;

    /// Told every update how many bytes of the budget no loaded piece holds (the budget less
    /// the ready and cached pieces): a source that keeps buffers for reuse keeps at most
    /// that many, so pieces and buffers together stay within the budget. Called on the main
    /// thread: must be cheap. The default keeps nothing.
    fn spare_bytes(&self, _bytes: usize) {}

    /// Called on a loader thread when there is nothing to load, with no lock held: one
    /// bounded piece of background work (a millisecond or two, such as faulting in the
    /// buffers of the next load), returning whether there is more. The thread waits for a
    /// job once it returns false, and calls it again after its next wake. The default does
    /// nothing.
    fn idle(&self) -> bool {
        false
    }
}
