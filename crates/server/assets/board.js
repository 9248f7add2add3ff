// The board as SVG, drawn from the variant's description: any shape of
// cells, shaded areas, lines between cells (rivers, borders), pieces in
// their army's colour. The only moves offered are the ones the server
// listed in `game.legal_moves`.

import { pieceGraphic } from './pieces.js';

const SVG = 'http://www.w3.org/2000/svg';
const S = 60;          // cell size in user units
const M = 26;          // margin for the coordinates

export { pieceGraphic };

export function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** Zero-based (file, rank) of a cell name such as `e4` or `a10`. */
export function cellXY(variant, name) {
  return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - variant.board.first_rank];
}

/** A colour darkened by a factor (for the dark cells of a shaded area). */
function darken(hex, k) {
  let h = hex.replace('#', '');
  if (h.length === 3) h = h.split('').map((c) => c + c).join('');
  return '#' + [0, 2, 4].map((i) => Math.round(parseInt(h.slice(i, i + 2), 16) * k)
    .toString(16).padStart(2, '0')).join('');
}

/** Maps board coordinates to view coordinates so that `forward` points up. */
function transform(files, ranks, forward) {
  switch (forward) {
    case 'south': return { w: files, h: ranks, at: (f, r) => [files - 1 - f, r] };
    case 'east': return { w: ranks, h: files, at: (f, r) => [ranks - 1 - r, files - 1 - f] };
    case 'west': return { w: ranks, h: files, at: (f, r) => [r, f] };
    default: return { w: files, h: ranks, at: (f, r) => [f, ranks - 1 - r] };
  }
}

export class Board {
  /** `onMove(move)` receives one of `game.legal_moves`. */
  constructor(container, variant, { onMove }) {
    this.variant = variant;
    this.onMove = onMove;
    this.forward = 'north';
    this.selected = null;
    this.game = null;
    this.container = container;
    this.cells = new Set(variant.board.cells);
    // The keyboard's cell: arrows move it, Enter or Space acts on it.
    this.cursor = variant.board.cells[0];
    this.svg = el('svg', { class: 'board', role: 'group', 'aria-label': `${variant.title} board; arrow keys move between cells, Enter picks a piece and its destination` });
    container.appendChild(this.svg);
    // The position in words, for screen readers.
    this.described = document.createElement('div');
    this.described.className = 'sr-only';
    this.described.id = 'position-text';
    this.described.setAttribute('aria-live', 'polite');
    container.appendChild(this.described);
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('keydown', (e) => this.key(e));
  }

  /** Arrow keys move the keyboard's cell (as the board is seen), Enter
   *  and Space click it. */
  key(e) {
    this.keyboard = true;
    const step = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (step) {
      e.preventDefault();
      e.stopPropagation();
      const [f, r] = cellXY(this.variant, this.cursor);
      const [x, y] = this.t.at(f, r);
      // The next cell of the board in that direction (skipping holes).
      for (let k = 1; k < 16; k++) {
        const name = this.cellAtView(x + step[0] * k, y + step[1] * k);
        if (name) { this.cursor = name; break; }
      }
      this.render();
      this.focusCursor();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      this.click(this.cursor);
      this.focusCursor();
    }
  }

  focusCursor() {
    this.svg.querySelector(`[data-cell="${this.cursor}"]`)?.focus();
  }

  /** The cell shown at view column x, row y, if any. */
  cellAtView(x, y) {
    const v = this.variant;
    for (let f = 0; f < v.board.files; f++) {
      for (let r = 0; r < v.board.ranks; r++) {
        const [vx, vy] = this.t.at(f, r);
        if (vx === x && vy === y) {
          const name = String.fromCharCode(97 + f) + (r + v.board.first_rank);
          return this.cells.has(name) ? name : null;
        }
      }
    }
    return null;
  }

  /** What stands on a cell, in words. */
  describeCell(name) {
    const p = this.game?.board.find((q) => q.cell === name);
    if (!p) return `${name} empty`;
    const kind = this.variant.pieces.find((k) => k.letter === p.letter);
    return `${name} ${this.variant.armies[p.army].name} ${kind ? kind.name : p.letter}`;
  }

  setForward(forward) {
    this.forward = forward;
    this.render();
  }

  /** Shows a game state (or a reviewed position, which has no legal
   *  moves); `animate` slides the last move's piece into place. */
  update(game, { animate = false } = {}) {
    this.game = game;
    if (this.selected && !this.movesFrom(this.selected).length) this.selected = null;
    const focused = this.svg.contains(document.activeElement);
    this.render();
    if (focused) this.focusCursor();
    if (animate && game.last_move) this.slide(game.last_move.from, game.last_move.to);
    this.describe();
  }

  /** Slides the piece now on `to` from `from` (skipped when the user
   *  asks for reduced motion). */
  slide(from, to) {
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const piece = this.svg.querySelector(`[data-piece="${to}"]`);
    if (!piece) return;
    const [x0, y0] = this.centre(from);
    const [x1, y1] = this.centre(to);
    const start = performance.now();
    const frame = (now) => {
      const k = Math.min(1, (now - start) / 180);
      const e = 1 - (1 - k) * (1 - k);
      piece.setAttribute('transform', `translate(${x0 + (x1 - x0) * e} ${y0 + (y1 - y0) * e})`);
      if (k < 1) requestAnimationFrame(frame);
    };
    piece.setAttribute('transform', `translate(${x0} ${y0})`);
    requestAnimationFrame(frame);
  }

  /** The position in words for screen readers: each army's pieces. */
  describe() {
    const v = this.variant;
    const g = this.game;
    if (!g) return;
    const lines = v.armies.map((a, i) => {
      const pieces = g.board.filter((p) => p.army === i).map((p) => {
        const kind = v.pieces.find((k) => k.letter === p.letter);
        return `${kind ? kind.name : p.letter} ${p.cell}`;
      });
      return pieces.length ? `${a.name}: ${pieces.join(', ')}.` : '';
    });
    this.described.textContent = lines.filter(Boolean).join(' ');
  }

  movesFrom(cell) {
    return this.game ? this.game.legal_moves.filter((m) => m.from === cell) : [];
  }

  centre(name) {
    const [f, r] = cellXY(this.variant, name);
    const [x, y] = this.t.at(f, r);
    return [x * S + S / 2, y * S + S / 2];
  }

  render() {
    const v = this.variant;
    const svg = this.svg;
    svg.replaceChildren();
    this.t = transform(v.board.files, v.board.ranks, this.forward);
    const { w, h } = this.t;
    svg.setAttribute('viewBox', `${-M} ${-M} ${w * S + 2 * M} ${h * S + 2 * M}`);
    // The box's width follows the board's shape, so that a tall board
    // (Avon, 8x10) fits the window's height too (style.css).
    svg.parentNode?.style.setProperty('--aspect', String((w * S + 2 * M) / (h * S + 2 * M)));
    const layer = (cls) => el('g', { class: cls }, svg);
    const cellsLayer = layer('cells');
    const markLayer = layer('marks');
    const homeLayer = layer('home');
    const lineLayer = layer('lines');
    const labelLayer = layer('coords');
    const pieceLayer = layer('pieces');
    const hintLayer = layer('hints');

    // Cells, checkered by file + rank; a shaded area keeps the checker in
    // its own colour (the last shade listing a cell wins).
    const shadeOf = new Map();
    for (const shade of v.shades) for (const name of shade.cells) shadeOf.set(name, shade.colour);
    for (const name of v.board.cells) {
      const [f, r] = cellXY(v, name);
      const [x, y] = this.t.at(f, r);
      const dark = (f + r) % 2 === 0;
      const shade = shadeOf.get(name);
      el('rect', {
        x: x * S, y: y * S, width: S, height: S, 'data-cell': name,
        class: dark ? 'cell dark' : 'cell light',
        style: shade ? `fill:${dark ? darken(shade, 0.8) : shade}` : null,
        tabindex: name === this.cursor ? 0 : -1,
        role: 'button',
        'aria-label': this.describeCell(name),
      }, cellsLayer);
    }
    // Lines along the edges between two cell sets.
    const edge = (a, b, attrs, parent) => {
      const [ax, ay] = this.centre(a);
      const [bx, by] = this.centre(b);
      const [mx, my] = [(ax + bx) / 2, (ay + by) / 2];
      const [dx, dy] = [(by - ay) / 2, (ax - bx) / 2];
      el('line', { x1: mx - dx, y1: my - dy, x2: mx + dx, y2: my + dy, ...attrs }, parent);
    };
    for (const line of v.lines) {
      for (const [a, b] of line.edges) {
        edge(a, b, { stroke: line.colour, class: 'region-line' }, lineLayer);
      }
    }
    // Coordinates outside the board, on whichever side they land.
    const clampOut = (c, size) => (c < 0 ? -M / 2 : c > size ? size + M / 2 : c);
    const label = (f, r, text) => {
      const [x, y] = this.t.at(f, r);
      el('text', {
        x: clampOut(x * S + S / 2, w * S), y: clampOut(y * S + S / 2, h * S),
        class: 'coord', 'text-anchor': 'middle', 'dominant-baseline': 'central',
      }, labelLayer).textContent = text;
    };
    for (let f = 0; f < v.board.files; f++) label(f, -1, String.fromCharCode(97 + f));
    for (let r = 0; r < v.board.ranks; r++) label(-1, r, String(r + v.board.first_rank));

    const g = this.game;
    if (!g) return;
    const square = (name, cls) => {
      const [cx, cy] = this.centre(name);
      el('rect', { x: cx - S / 2, y: cy - S / 2, width: S, height: S, class: cls }, markLayer);
    };
    if (g.last_move) {
      square(g.last_move.from, 'last-move');
      square(g.last_move.to, 'last-move');
    }
    // The home of the player to move, outlined (Avon's halves, camps).
    if (g.to_move !== null && g.to_move !== undefined) {
      const home = new Set(v.players[g.to_move].home);
      for (const a of home) {
        const [f, r] = cellXY(v, a);
        for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          // The neighbour's name, even off the board: only its place matters.
          const b = String.fromCharCode(97 + f + df) + (r + dr + v.board.first_rank);
          if (home.has(b)) continue;
          edge(a, b, { class: 'home-line' }, homeLayer);
        }
      }
    }
    for (const cell of g.attacked_royals) {
      const [cx, cy] = this.centre(cell);
      el('circle', { cx, cy, r: S * 0.46, class: 'attacked' }, markLayer);
    }
    if (this.selected) square(this.selected, 'selected');
    if (this.keyboard) square(this.cursor, 'cursor');

    for (const p of g.board) {
      const [cx, cy] = this.centre(p.cell);
      const piece = pieceGraphic(v, p.army, p.letter);
      piece.setAttribute('transform', `translate(${cx} ${cy})`);
      piece.setAttribute('data-piece', p.cell);
      pieceLayer.appendChild(piece);
    }
    // Targets of the selected piece: dots on empty cells, rings on pieces.
    if (this.selected) {
      const occupied = new Set(g.board.map((p) => p.cell));
      const seen = new Set();
      for (const m of this.movesFrom(this.selected)) {
        if (seen.has(m.to)) continue;
        seen.add(m.to);
        const [cx, cy] = this.centre(m.to);
        el('circle', occupied.has(m.to)
          ? { cx, cy, r: S * 0.44, class: 'target capture', 'data-target': m.to }
          : { cx, cy, r: S * 0.14, class: 'target', 'data-target': m.to }, hintLayer);
      }
    }
  }

  /** The cell under a pointer event, if it exists. */
  cellAt(e) {
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = pt.matrixTransform(m.inverse());
    return this.cellAtView(Math.floor(p.x / S), Math.floor(p.y / S));
  }

  pointerDown(e) {
    this.keyboard = false;
    const cell = this.cellAt(e);
    this.drag = null;
    if (cell && this.movesFrom(cell).length) {
      this.drag = { from: cell, x: e.clientX, y: e.clientY, moved: false };
      this.svg.setPointerCapture?.(e.pointerId);
    }
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
    if (!d.moved) {
      d.moved = true;
      this.selected = d.from;
      this.render();
    }
    const piece = this.svg.querySelector(`[data-piece="${d.from}"]`);
    const m = this.svg.getScreenCTM();
    if (piece && m) {
      const pt = this.svg.createSVGPoint();
      pt.x = e.clientX;
      pt.y = e.clientY;
      const p = pt.matrixTransform(m.inverse());
      piece.setAttribute('transform', `translate(${p.x} ${p.y})`);
      piece.classList.add('dragging');
    }
  }

  pointerUp(e) {
    const d = this.drag;
    this.drag = null;
    const cell = this.cellAt(e);
    if (d && d.moved) {
      if (cell && cell !== d.from) this.tryMove(d.from, cell);
      else this.render();
      return;
    }
    this.click(cell);
  }

  click(cell) {
    if (!cell || !this.game) return;
    this.cursor = cell;
    if (this.selected && this.movesFrom(this.selected).some((m) => m.to === cell)) {
      this.tryMove(this.selected, cell);
      return;
    }
    this.selected = this.movesFrom(cell).length && this.selected !== cell ? cell : null;
    this.render();
  }

  tryMove(from, to) {
    const moves = this.movesFrom(from).filter((m) => m.to === to);
    this.selected = null;
    this.render();
    if (moves.length) this.onMove(moves, from, to);
  }
}
