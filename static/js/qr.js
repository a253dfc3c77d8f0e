// A small QR Code encoder (ISO/IEC 18004): byte mode, error correction L or M, versions 1–10
// (up to 213 bytes at M: any invite link). Written from the specification for the invite QR
// of the waiting room, so a phone can join without typing; no CDN, no library.

// Error correction per version (index 0 = version 1): [EC codewords per block, blocks of the
// first group, data codewords in each, blocks of the second group (one more data codeword)].
// ISO/IEC 18004:2015 Table 9.
const BLOCKS = {
  L: [
    [7, 1, 19, 0], [10, 1, 34, 0], [15, 1, 55, 0], [20, 1, 80, 0], [26, 1, 108, 0],
    [18, 2, 68, 0], [20, 2, 78, 0], [24, 2, 97, 0], [30, 2, 116, 0], [18, 2, 68, 2],
  ],
  M: [
    [10, 1, 16, 0], [16, 1, 28, 0], [26, 1, 44, 0], [18, 2, 32, 0], [24, 2, 43, 0],
    [16, 4, 27, 0], [18, 4, 31, 0], [22, 2, 38, 2], [22, 3, 36, 2], [26, 4, 43, 1],
  ],
};
// Centres of the alignment patterns, rows and columns alike (Annex E), versions 2–10.
const ALIGNMENT = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
// The two bits of each level in the format information (Table 12).
const LEVEL_BITS = { L: 1, M: 0 };
export const MAX_VERSION = 10;

// -- Reed–Solomon over GF(256), primitive polynomial x^8+x^4+x^3+x^2+1 (0x11D) -------------
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i += 1) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i += 1) EXP[i] = EXP[i - 255];
}

const mul = (a, b) => (a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]]);

/** The generator polynomial (x - α^0)(x - α^1)…(x - α^(n-1)), highest power first. */
function generator(degree) {
  let poly = [1];
  for (let i = 0; i < degree; i += 1) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j += 1) {
      next[j] ^= poly[j];
      next[j + 1] ^= mul(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly;
}

/** The ``degree`` error correction codewords of ``data`` (the remainder of data·x^n / g). */
export function reedSolomon(data, degree) {
  const gen = generator(degree);
  const rest = new Array(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ rest[0];
    rest.shift();
    rest.push(0);
    for (let i = 0; i < degree; i += 1) rest[i] ^= mul(gen[i + 1], factor);
  }
  return rest;
}

// -- BCH codes of the format and version information -----------------------------------------
function bch(value, bits, poly, polyBits) {
  let rem = value << (polyBits - 1);
  for (let i = bits + polyBits - 2; i >= polyBits - 1; i -= 1) {
    if ((rem >> i) & 1) rem ^= poly << (i - polyBits + 1);
  }
  return (value << (polyBits - 1)) | rem;
}

/** The 15 format bits for a level and mask, masked with 101010000010010 (§7.9). */
export function formatBits(level, mask) {
  return bch((LEVEL_BITS[level] << 3) | mask, 5, 0x537, 11) ^ 0x5412;
}

/** The 18 version bits (versions 7 and up, §7.10). */
export function versionBits(version) {
  return bch(version, 6, 0x1f25, 13);
}

// -- capacity and the data bit stream ---------------------------------------------------------
function blocksOf(version, level) {
  const [ec, n1, d1, n2] = BLOCKS[level][version - 1];
  const sizes = [...Array(n1).fill(d1), ...Array(n2).fill(d1 + 1)];
  return { ec, sizes, data: sizes.reduce((a, b) => a + b, 0) };
}

const countBits = (version) => (version <= 9 ? 8 : 16);

/** The bytes a version holds in byte mode at a level. */
export function byteCapacity(version, level) {
  return Math.floor((blocksOf(version, level).data * 8 - 4 - countBits(version)) / 8);
}

function dataCodewords(bytes, version, level) {
  const { data } = blocksOf(version, level);
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i -= 1) bits.push((value >> i) & 1);
  };
  put(0b0100, 4); // byte mode
  put(bytes.length, countBits(version));
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, data * 8 - bits.length)); // terminator
  while (bits.length % 8) bits.push(0);
  const words = [];
  for (let i = 0; i < bits.length; i += 8) words.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0; words.length < data; pad += 1) words.push(pad % 2 ? 0x11 : 0xec);
  return words;
}

/** Data and error correction codewords split in blocks and interleaved (§7.6). */
function codewords(bytes, version, level) {
  const { ec, sizes } = blocksOf(version, level);
  const data = dataCodewords(bytes, version, level);
  const blocks = [];
  let at = 0;
  for (const size of sizes) {
    const block = data.slice(at, at + size);
    at += size;
    blocks.push({ data: block, ec: reedSolomon(block, ec) });
  }
  const out = [];
  for (let i = 0; i < Math.max(...sizes); i += 1) for (const b of blocks) if (i < b.data.length) out.push(b.data[i]);
  for (let i = 0; i < ec; i += 1) for (const b of blocks) out.push(b.ec[i]);
  return out;
}

// -- the symbol ---------------------------------------------------------------------------
const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

function grid(size, value) {
  return Array.from({ length: size }, () => new Array(size).fill(value));
}

/** Finder, separators, timing, alignment, the dark module and reserved format/version areas. */
function functionPatterns(version) {
  const size = version * 4 + 17;
  const dark = grid(size, false);
  const fixed = grid(size, false);
  const set = (r, c, on) => {
    if (r < 0 || c < 0 || r >= size || c >= size) return;
    dark[r][c] = on;
    fixed[r][c] = true;
  };
  for (const [fr, fc] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
    for (let r = -1; r <= 7; r += 1) {
      for (let c = -1; c <= 7; c += 1) {
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
        set(fr + r, fc + c, ring !== 2 && ring !== 4);
      }
    }
  }
  for (let i = 8; i < size - 8; i += 1) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  const centres = ALIGNMENT[version - 1];
  const last = centres[centres.length - 1];
  for (const r of centres) {
    for (const c of centres) {
      // Never over a finder pattern (the three corners); the timing lines run through others.
      if ((r === 6 && (c === 6 || c === last)) || (r === last && c === 6)) continue;
      for (let dr = -2; dr <= 2; dr += 1) {
        for (let dc = -2; dc <= 2; dc += 1) set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
      }
    }
  }
  // Format information areas (filled per mask) and the dark module beside the lower finder.
  for (let i = 0; i <= 8; i += 1) {
    if (!fixed[8][i]) set(8, i, false);
    if (!fixed[i][8]) set(i, 8, false);
  }
  for (let i = 0; i < 8; i += 1) {
    set(8, size - 1 - i, false);
    set(size - 1 - i, 8, false);
  }
  set(size - 8, 8, true);
  if (version >= 7) {
    const bits = versionBits(version);
    for (let i = 0; i < 18; i += 1) {
      const on = ((bits >> i) & 1) === 1;
      const a = Math.floor(i / 3);
      const b = (i % 3) + size - 11;
      set(a, b, on);
      set(b, a, on);
    }
  }
  return { size, dark, fixed };
}

function placeFormat(dark, size, level, mask) {
  const bits = formatBits(level, mask);
  const bit = (i) => ((bits >> i) & 1) === 1;
  // Around the upper-left finder: bits 0–7 down column 8 (skipping the timing row), 8–14 along
  // row 8 right to left (skipping the timing column).
  for (let i = 0; i <= 5; i += 1) dark[i][8] = bit(i);
  dark[7][8] = bit(6);
  dark[8][8] = bit(7);
  dark[8][7] = bit(8);
  for (let i = 9; i < 15; i += 1) dark[8][14 - i] = bit(i);
  // The copy: bits 0–7 along row 8 from the right edge, 8–14 up column 8 from the bottom.
  for (let i = 0; i < 8; i += 1) dark[8][size - 1 - i] = bit(i);
  for (let i = 8; i < 15; i += 1) dark[size - 15 + i][8] = bit(i);
}

function placeData(dark, fixed, size, words) {
  let index = 0;
  const total = words.length * 8;
  let upward = true;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5; // the vertical timing pattern is skipped whole
    for (let step = 0; step < size; step += 1) {
      const r = upward ? size - 1 - step : step;
      for (const c of [right, right - 1]) {
        if (fixed[r][c]) continue;
        // Remainder bits after the last codeword are 0 (§7.7.3).
        dark[r][c] = index < total && ((words[index >> 3] >> (7 - (index & 7))) & 1) === 1;
        index += 1;
      }
    }
    upward = !upward;
  }
}

/** The penalty score of a masked symbol (§7.8.3, N1=3, N2=3, N3=40, N4=10). */
export function penalty(dark) {
  const size = dark.length;
  let score = 0;
  const lines = [];
  for (let i = 0; i < size; i += 1) {
    lines.push(dark[i]);
    lines.push(dark.map((row) => row[i]));
  }
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= size; i += 1) {
      if (i < size && line[i] === line[i - 1]) {
        run += 1;
        continue;
      }
      if (run >= 5) score += 3 + run - 5;
      run = 1;
    }
    // 1:1:3:1:1 dark-light pattern with four light modules on either side.
    for (let i = 0; i + 7 <= size; i += 1) {
      const core = line[i] && !line[i + 1] && line[i + 2] && line[i + 3] && line[i + 4] && !line[i + 5] && line[i + 6];
      if (!core) continue;
      const lightBefore = [1, 2, 3, 4].every((k) => i - k < 0 || !line[i - k]);
      const lightAfter = [7, 8, 9, 10].every((k) => i + k >= size || !line[i + k]);
      if (lightBefore || lightAfter) score += 40;
    }
  }
  for (let r = 0; r + 1 < size; r += 1) {
    for (let c = 0; c + 1 < size; c += 1) {
      const v = dark[r][c];
      if (dark[r][c + 1] === v && dark[r + 1][c] === v && dark[r + 1][c + 1] === v) score += 3;
    }
  }
  const darkCount = dark.reduce((n, row) => n + row.filter(Boolean).length, 0);
  const percent = (darkCount * 100) / (size * size);
  score += Math.floor(Math.abs(percent - 50) / 5) * 10;
  return score;
}

/**
 * The QR symbol of ``text`` (UTF-8, byte mode): ``{version, size, level, mask, modules}``
 * with ``modules[row][col]`` true for dark. The smallest version 1–10 that holds it; ``mask``
 * null picks the mask of lowest penalty. Throws a RangeError when the text is too long.
 */
export function encodeQr(text, { level = "M", mask = null, minVersion = 1 } = {}) {
  if (!(level in BLOCKS)) throw new RangeError(`unsupported level ${level}`);
  const bytes = new TextEncoder().encode(text);
  let version = minVersion;
  while (version <= MAX_VERSION && byteCapacity(version, level) < bytes.length) version += 1;
  if (version > MAX_VERSION) throw new RangeError(`${bytes.length} bytes do not fit a version ${MAX_VERSION} symbol`);
  const { size, dark, fixed } = functionPatterns(version);
  placeData(dark, fixed, size, codewords(bytes, version, level));
  let best = null;
  for (const m of mask === null ? [0, 1, 2, 3, 4, 5, 6, 7] : [mask]) {
    const masked = dark.map((row, r) => row.map((on, c) => (fixed[r][c] ? on : on !== MASKS[m](r, c))));
    placeFormat(masked, size, level, m);
    const score = mask === null ? penalty(masked) : 0;
    if (!best || score < best.score) best = { score, mask: m, modules: masked };
  }
  return { version, size, level, mask: best.mask, modules: best.modules };
}

/** An SVG drawing of the symbol with its four-module quiet zone, ``pixels`` wide. */
export function qrSvg(text, { level = "M", pixels = 180, label = "" } = {}) {
  const { size, modules } = encodeQr(text, { level });
  const NS = "http://www.w3.org/2000/svg";
  const full = size + 8;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${full} ${full}`);
  svg.setAttribute("width", String(pixels));
  svg.setAttribute("height", String(pixels));
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.setAttribute("role", "img");
  if (label) svg.setAttribute("aria-label", label);
  const back = document.createElementNS(NS, "rect");
  back.setAttribute("width", String(full));
  back.setAttribute("height", String(full));
  back.setAttribute("fill", "#fff");
  const path = document.createElementNS(NS, "path");
  let d = "";
  for (let r = 0; r < size; r += 1) for (let c = 0; c < size; c += 1) if (modules[r][c]) d += `M${c + 4} ${r + 4}h1v1h-1z`;
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(back, path);
  return svg;
}
