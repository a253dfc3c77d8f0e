// A circle's invite code, as this browser was given it (on creating the circle, renewing its
// link, or joining by it). The server keeps only the code's hash, so the link can be shown
// again only where it was seen: kept per circle with the link's id, which tells whether it is
// still the circle's current one.

const key = (circle) => `coven:circle-invite:${circle}`;

export function keepInvite(circle, invite) {
  if (!invite || !invite.code) return;
  localStorage.setItem(key(circle), JSON.stringify({ code: invite.code, invite_id: invite.invite_id }));
}

export function heldInvite(circle) {
  try {
    const held = JSON.parse(localStorage.getItem(key(circle)) || "null");
    return held && typeof held.code === "string" ? held : null;
  } catch {
    return null;
  }
}

export function forgetInvite(circle) {
  localStorage.removeItem(key(circle));
}
