// The HTTP API (DESIGN.md contract) and the seat tokens this browser holds.

import { contributions, newContribution } from "./contribution.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", String(err));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || "http_error", error.message || response.statusText);
  }
  return data;
}

// A seat token lives as long as the match: kept per room so a reload, a closed tab or a reboot
// resumes the same seat.
const seatKey = (code) => `coven:seat:${code}`;

export const seats = {
  get(code) {
    try {
      const data = JSON.parse(localStorage.getItem(seatKey(code)) || "null");
      return data && typeof data.token === "string" ? data : null;
    } catch {
      return null;
    }
  },
  set(code, seat, token) {
    localStorage.setItem(seatKey(code), JSON.stringify({ seat, token }));
  },
  clear(code) {
    localStorage.removeItem(seatKey(code));
  },
};

// The server takes at most this many in one request (POST /api/me/tables).
const MAX_HELD_SEATS = 200;

/** Every seat token this browser keeps, as ``[{room, token}]``: sent in request bodies only
 * (the home page's tables), never in a URL. */
export function heldSeats() {
  const prefix = seatKey("");
  const held = [];
  for (let i = 0; i < localStorage.length && held.length < MAX_HELD_SEATS; i += 1) {
    const name = localStorage.key(i);
    if (!name || !name.startsWith(prefix)) continue;
    const room = name.slice(prefix.length);
    const seat = seats.get(room);
    if (seat) held.push({ room, token: seat.token });
  }
  return held;
}

export const playerName = {
  get: () => localStorage.getItem("coven:name") || "",
  set: (name) => localStorage.setItem("coven:name", name),
};

/** Where friends reach this server: COVEN_PUBLIC_URL (given by the page) behind a proxy, else
 * the address this browser used. */
export function publicBase() {
  const meta = document.querySelector('meta[name="coven-public-url"]');
  return (meta && meta.content) || location.origin;
}

export function roomUrl(code) {
  return `${publicBase()}/r/${encodeURIComponent(code)}`;
}

export function rejoinUrl(code, seat, token) {
  return `${roomUrl(code)}#seat=${seat}&token=${encodeURIComponent(token)}`;
}

/** Create a room, remember its seat, and return its code. */
export async function createRoom({ game, visibility, options, name, turnSeconds, clockRule, seats: seatCount, circle, rematchBy }) {
  const body = { game, visibility, options, name };
  if (turnSeconds) body.turn_seconds = turnSeconds; // none: no clock
  if (turnSeconds && clockRule === "seat") body.clock_rule = clockRule; // else "move"
  if (seatCount) body.seats = seatCount; // none: the game's maximum
  if (circle) body.circle = circle; // a table opened for a circle (its public id)
  if (rematchBy === "anyone") body.rematch_by = rematchBy; // else the host alone (the default)
  body.contribution = newContribution(); // this browser's part of the shuffle (contribution.js)
  const created = await api("POST", "/api/rooms", { body });
  seats.set(created.room.code, created.seat, created.token);
  contributions.set(created.room.code, body.contribution);
  playerName.set(name);
  return created.room.code;
}
