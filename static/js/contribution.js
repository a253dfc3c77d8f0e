// This browser's part of each room's shuffle (docs/FAIRNESS.md): 16 random bytes, sent when it
// takes a seat and kept per room, so the page can show its player that it went in.

const KEY = (code) => `coven-contribution:${code}`;

/** 16 random bytes as 32 lowercase hex digits (crypto.getRandomValues). */
export function newContribution() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export const contributions = {
  get(code) {
    try {
      return localStorage.getItem(KEY(code));
    } catch {
      return null;
    }
  },
  set(code, value) {
    try {
      localStorage.setItem(KEY(code), value);
    } catch {
      // private mode: the part still went in, the page just cannot show it again
    }
  },
};
