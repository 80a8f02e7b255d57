// Planning runs long synchronous stretches: binding the data (a GCN's normalised adjacency and
// generated features on a million-entry graph: about 90 ms here), the exact searches and the
// front's search (50-130 ms together). A server plans on its one event loop, and an `await` of a
// promise already settled gives it no turn, so between those stretches planning asks for one:
// other connections' requests (a status, a cancel, an upload's next chunk) are read then, and a
// cancelled plan stops there, instead of after the whole plan.

/** Resolves on the event loop's next turn, after the I/O waiting now has been handled; throws the signal's reason if it was aborted by then. */
export async function nextTurn(signal?: AbortSignal): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  signal?.throwIfAborted();
}
