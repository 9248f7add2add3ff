// Piece pictures, drawn by the project as SVG: a silhouette per piece kind
// in its army's colour, outlined in a contrasting colour. Fairy pieces are
// a silhouette plus a badge naming what they add (the Marshal is a Rook
// with a Knight's badge), or a silhouette of their own (Camel, Cannon,
// Lion, Dragon, Elephant, Arrow). A piece is found by its `image` name
// (the variant file's `display.images`, else its name), then by its moves
// (Betza K, Q, R, B, N, a pawn); anything else is its letter on a disc,
// as is every piece when the "letters" setting is on.

const SVG = 'http://www.w3.org/2000/svg';

let letters = false;
/** Draw letters on discs instead of pictures. */
export function setLetters(on) { letters = !!on; }

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** Is a colour light (a dark outline reads better on it)? */
function isLight(hex) {
  let h = hex.replace('#', '');
  if (h.length === 3) h = h.split('').map((c) => c + c).join('');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55;
}

// Silhouettes in a 100-unit box centred on (0, 0), standing on y = 40.
// Each is a list of [element, attributes]; `body` parts take the army's
// colour, `detail` parts the outline's.
const BASE = ['path', { d: 'M-26 40 L26 40 L26 34 Q26 30 22 30 L-22 30 Q-26 30 -26 34 Z' }];
const SHAPES = {
  pawn: [BASE, ['path', { d: 'M-16 30 C-16 16 -9 10 -8 4 L8 4 C9 10 16 16 16 30 Z' }],
    ['circle', { cx: 0, cy: -10, r: 13 }]],
  rook: [BASE, ['path', { d: 'M-18 30 L-15 -8 L15 -8 L18 30 Z' }],
    ['path', { d: 'M-23 -6 L-23 -32 L-13 -32 L-13 -23 L-5 -23 L-5 -32 L5 -32 L5 -23 L13 -23 L13 -32 L23 -32 L23 -6 Z' }]],
  bishop: [BASE, ['path', { d: 'M-17 30 C-22 12 -18 -4 0 -28 C18 -4 22 12 17 30 Z' }],
    ['circle', { cx: 0, cy: -33, r: 6 }],
    ['path', { d: 'M7 -14 L-5 0', detail: true, stroke: true }]],
  knight: [BASE, ['path', { d: 'M-16 30 C-16 12 -4 6 -6 -4 C-12 0 -20 2 -25 -4 C-28 -10 -16 -22 -10 -28 L-6 -38 L-1 -30 C16 -28 26 -8 20 30 Z' }],
    ['circle', { cx: -8, cy: -18, r: 3, detail: true }]],
  king: [BASE, ['path', { d: 'M-20 30 C-26 10 -28 -8 -15 -10 C-8 -11 -4 -6 0 -1 C4 -6 8 -11 15 -10 C28 -8 26 10 20 30 Z' }],
    ['path', { d: 'M-3 -40 L3 -40 L3 -33 L10 -33 L10 -27 L3 -27 L3 -8 L-3 -8 L-3 -27 L-10 -27 L-10 -33 L-3 -33 Z' }]],
  queen: [BASE, ['path', { d: 'M-20 30 L-27 -16 L-12 4 L-8 -24 L0 0 L8 -24 L12 4 L27 -16 L20 30 Z' }],
    ['circle', { cx: -27, cy: -21, r: 5 }], ['circle', { cx: -8, cy: -29, r: 5 }],
    ['circle', { cx: 8, cy: -29, r: 5 }], ['circle', { cx: 27, cy: -21, r: 5 }]],
  // A crowned piece without the cross: a coronet's ball.
  prince: [BASE, ['path', { d: 'M-20 30 C-26 10 -28 -8 -15 -10 C-8 -11 -4 -6 0 -1 C4 -6 8 -11 15 -10 C28 -8 26 10 20 30 Z' }],
    ['circle', { cx: 0, cy: -16, r: 8 }]],
  consort: [BASE, ['path', { d: 'M-20 30 C-26 10 -28 -8 -15 -10 C-8 -11 -4 -6 0 -1 C4 -6 8 -11 15 -10 C28 -8 26 10 20 30 Z' }],
    ['circle', { cx: 0, cy: -20, r: 10 }], ['circle', { cx: 0, cy: -20, r: 4, detail: true }]],
  princess: [BASE, ['path', { d: 'M-16 30 L-22 -8 L-8 6 L0 -20 L8 6 L22 -8 L16 30 Z' }],
    ['circle', { cx: 0, cy: -26, r: 6 }]],
  camel: [BASE, ['path', { d: 'M-24 30 L-22 6 C-26 0 -30 -8 -30 -18 L-22 -22 C-20 -12 -16 -8 -10 -8 C-8 -26 6 -28 8 -12 C12 -24 24 -22 24 -4 L22 30 L14 30 L14 12 L-12 12 L-14 30 Z' }],
    ['circle', { cx: -25, cy: -16, r: 2, detail: true }]],
  cannon: [['path', { d: 'M-24 10 L24 -26 L30 -18 L-16 18 Z' }],
    ['circle', { cx: -8, cy: 22, r: 15 }], ['circle', { cx: -8, cy: 22, r: 5, detail: true }], BASE],
  arrow: [BASE, ['path', { d: 'M0 -40 L19 -12 L7 -12 L7 30 L-7 30 L-7 -12 L-19 -12 Z' }]],
  lion: [BASE, ['path', { d: 'M0 -36 L7 -26 L19 -30 L18 -18 L30 -14 L21 -5 L28 6 L15 8 L14 20 L4 13 L-4 20 L-6 8 L-18 12 L-16 0 L-28 -6 L-18 -13 L-24 -24 L-12 -24 L-8 -36 Z' }],
    ['circle', { cx: 0, cy: -8, r: 12 }], ['circle', { cx: -4, cy: -11, r: 2, detail: true }], ['circle', { cx: 4, cy: -11, r: 2, detail: true }]],
  dragon: [BASE, ['path', { d: 'M-32 -8 L-12 -34 L-8 -12 L0 -38 L8 -12 L12 -34 L32 -8 L20 0 L18 30 L-18 30 L-20 0 Z' }],
    ['path', { d: 'M-10 10 L0 18 L10 10', detail: true, stroke: true }]],
  elephant: [BASE, ['path', { d: 'M-26 30 L-26 -2 C-26 -26 18 -30 22 -8 C26 6 24 22 14 24 L14 14 C18 10 16 0 10 0 L10 30 L2 30 L2 14 L-16 14 L-16 30 Z' }],
    ['circle', { cx: 6, cy: -12, r: 2.5, detail: true }], ['path', { d: 'M-6 -18 C-14 -14 -14 -4 -6 0', detail: true, stroke: true }]],
  chariot: [BASE, ['path', { d: 'M-26 -4 L26 -4 L22 18 L-22 18 Z' }], ['path', { d: 'M-20 -4 L-14 -30 L14 -30 L20 -4 Z' }],
    ['circle', { cx: -14, cy: 22, r: 9 }], ['circle', { cx: 14, cy: 22, r: 9 }]],
  general: [BASE, ['path', { d: 'M-22 30 L-22 -6 C-22 -30 22 -30 22 -6 L22 30 Z' }],
    ['path', { d: 'M0 -26 L5 -14 L18 -14 L8 -6 L12 6 L0 -2 L-12 6 L-8 -6 L-18 -14 L-5 -14 Z', detail: true }]],
  advisor: [BASE, ['path', { d: 'M-16 30 L-20 -6 L0 -34 L20 -6 L16 30 Z' }],
    ['path', { d: 'M-9 -14 L9 4 M9 -14 L-9 4', detail: true, stroke: true }]],
  soldier: [BASE, ['path', { d: 'M-16 30 C-16 16 -9 10 -8 4 L8 4 C9 10 16 16 16 30 Z' }],
    ['path', { d: 'M-14 -4 L-14 -18 L0 -30 L14 -18 L14 -4 Z' }]],
  wazir: [BASE, ['path', { d: 'M-8 -34 L8 -34 L8 -16 L26 -16 L26 0 L8 0 L8 28 L-8 28 L-8 0 L-26 0 L-26 -16 L-8 -16 Z' }]],
  ferz: [BASE, ['path', { d: 'M0 -36 L26 -8 L0 20 L-26 -8 Z' }]],
};

// Pieces by picture name: a silhouette, and a badge (a small silhouette
// or a letter) for what a compound or a limited piece adds.
const PIECES = {
  king: { shape: 'king' }, queen: { shape: 'queen' }, rook: { shape: 'rook' },
  bishop: { shape: 'bishop' }, knight: { shape: 'knight' }, pawn: { shape: 'pawn' },
  marshal: { shape: 'rook', badge: 'knight' }, chancellor: { shape: 'rook', badge: 'knight' },
  cardinal: { shape: 'bishop', badge: 'knight' }, archbishop: { shape: 'bishop', badge: 'knight' },
  chatelaine: { shape: 'rook', badge: 'ferz' }, primate: { shape: 'bishop', badge: 'wazir' },
  carpenter: { shape: 'knight', badge: 'D' }, caliph: { shape: 'bishop', badge: 'camel' },
  gnu: { shape: 'knight', badge: 'camel' }, unicorn: { shape: 'knight', badge: 'bishop', horn: true },
  prince: { shape: 'prince' }, 'prince-consort': { shape: 'consort' }, princess: { shape: 'princess' },
  abbot: { shape: 'bishop', badge: 'up' }, caryatid: { shape: 'rook', badge: 'up' },
  'anglican-bishop': { shape: 'bishop', badge: 'wazir' },
  camel: { shape: 'camel' }, cannon: { shape: 'cannon' }, arrow: { shape: 'arrow' },
  lion: { shape: 'lion' }, dragon: { shape: 'dragon' }, elephant: { shape: 'elephant' },
  horse: { shape: 'knight', badge: 'H' }, chariot: { shape: 'chariot' }, general: { shape: 'general' },
  advisor: { shape: 'advisor' }, soldier: { shape: 'soldier' }, wazir: { shape: 'wazir' },
  ferz: { shape: 'ferz' },
};

// Pieces that move exactly like a chess piece get its picture.
const BY_BETZA = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };

function recipe(kind) {
  if (!kind) return null;
  return PIECES[kind.image] || PIECES[BY_BETZA[kind.betza]]
    || (kind.betza === 'mfWcfF' ? PIECES.pawn : null);
}

/** Draws a silhouette into `g`: body parts in `fill`, details in `line`. */
function drawShape(g, name, fill, line, width) {
  for (const [tag, attrs] of SHAPES[name]) {
    const a = { ...attrs };
    const detail = a.detail;
    const strokeOnly = a.stroke;
    delete a.detail;
    delete a.stroke;
    if (strokeOnly) Object.assign(a, { fill: 'none', stroke: line, 'stroke-width': width * 1.3, 'stroke-linecap': 'round' });
    else if (detail) Object.assign(a, { fill: line, stroke: 'none' });
    else Object.assign(a, { fill, stroke: line, 'stroke-width': width, 'stroke-linejoin': 'round' });
    el(tag, a, g);
  }
}

/** A piece drawn centred on (0, 0) at cell size `size`, in the army's
 *  colour: its picture, or its letter on a disc. */
export function pieceGraphic(variant, army, letter, size = 60) {
  const g = el('g', { class: 'piece' });
  const kind = variant.pieces.find((p) => p.letter === letter);
  const colour = variant.armies[army].colour;
  const light = isLight(colour);
  const line = light ? '#1a1a1a' : '#f2f2f2';
  const r = letters ? null : recipe(kind);
  if (!r) {
    el('circle', { r: size * 0.36, fill: colour, stroke: light ? '#222' : '#f0f0f0', 'stroke-width': size * 0.04 }, g);
    const t = el('text', {
      x: 0, y: size * 0.02, 'font-size': size * 0.4, 'font-weight': 'bold',
      'text-anchor': 'middle', 'dominant-baseline': 'central',
      fill: light ? '#111' : '#fff', class: 'letter',
    }, g);
    t.textContent = letter;
    return g;
  }
  const art = el('g', { transform: `scale(${(size * 0.84) / 100})`, class: 'art', 'data-image': kind.image }, g);
  drawShape(art, r.shape, colour, line, 3.2);
  if (r.horn) el('path', { d: 'M-6 -36 L-20 -48', stroke: line, 'stroke-width': 4, 'stroke-linecap': 'round' }, art);
  if (r.badge) {
    // The badge: a disc in the outline's colour at the top right.
    const b = el('g', { transform: 'translate(27 -30)' }, art);
    el('circle', { r: 15, fill: line, stroke: colour, 'stroke-width': 2.5 }, b);
    if (SHAPES[r.badge]) {
      const mini = el('g', { transform: 'scale(0.27) translate(0 -2)' }, b);
      drawShape(mini, r.badge, colour, colour, 1);
    } else if (r.badge === 'up') {
      el('path', { d: 'M0 -10 L8 1 L3 1 L3 10 L-3 10 L-3 1 L-8 1 Z', fill: colour }, b);
    } else {
      const t = el('text', {
        x: 0, y: 1, 'font-size': 19, 'font-weight': 'bold', 'text-anchor': 'middle',
        'dominant-baseline': 'central', fill: colour,
      }, b);
      t.textContent = r.badge;
    }
  }
  return g;
}
