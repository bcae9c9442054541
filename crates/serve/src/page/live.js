// The live board (issue #61): one server-sent-events stream per tab on
// the game shown (GET /api/games/<id>/events), whose every message is the
// game's new state: each move (the engine's too), roll, take-back, its
// request and answers, a seat joined, a flag fall, the result. The
// browser reconnects by itself when the connection drops, and the server
// starts every stream with the state as it is, so a tab that was asleep
// or offline catches up at once.

let source = null;

// Follows game `id`: `onState(state)` for each state, `onGone()` when the
// game is deleted. Stops following the game shown before.
export function watch(id, onState, onGone) {
  stop();
  const s = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  source = s;
  s.onmessage = (ev) => {
    if (source !== s) return;
    let state = null;
    try {
      state = JSON.parse(ev.data);
    } catch (_) {
      return;
    }
    onState(state);
  };
  s.addEventListener('gone', () => {
    if (source !== s) return;
    stop();
    onGone();
  });
}

export function stop() {
  if (source) source.close();
  source = null;
}
