// One overlay at a time on a narrow screen (issue 21): a move's confirmation question, the
// chat-and-log drawer and the rules sheet never stack. Each says when it opens, with how to close
// it; opening one closes the others on a phone or a narrow window (the keyboard focus then goes
// into the one on top, not back to the closed one's opener). On a wide screen the rules sit
// beside the table and the chat in the side column: nothing is closed there.

const NARROW = "(max-width: 980px)";
const shown = new Map(); // name → close(), for each overlay open now

/** `name` ("confirm", "talk", "rules") is open now; `close()` closes it without moving focus. */
export function overlayOpened(name, close) {
  if (window.matchMedia(NARROW).matches) {
    for (const [other, closeOther] of [...shown]) {
      if (other === name) continue;
      shown.delete(other);
      closeOther();
    }
  }
  shown.set(name, close);
}

/** `name` is closed now (by its own controls, Escape, or an answer). */
export function overlayClosed(name) {
  shown.delete(name);
}
