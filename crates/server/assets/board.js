// The board as SVG, drawn from the variant's description: any shape of
// cells, shaded areas, lines between cells (rivers, borders), pieces in
// their army's colour. The only moves offered are the ones the server
// listed in `game.legal_moves`.

const SVG = 'http://www.w3.org/2000/svg';
const S = 60;          // cell size in user units
const M = 26;          // margin for the coordinates

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

/** Is a colour light (dark text on it reads better)? */
export function isLight(hex) {
  let h = hex.replace('#', '');
  if (h.length === 3) h = h.split('').map((c) => c + c).join('');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55;
}

/** A piece drawn centred on (0, 0) at cell size `size`: the variant's
 *  glyph, or its letter on a disc, in the army's colour. */
export function pieceGraphic(variant, army, letter, size = S) {
  const g = el('g', { class: 'piece' });
  const kind = variant.pieces.find((p) => p.letter === letter);
  const colour = variant.armies[army].colour;
  const light = isLight(colour);
  if (kind && kind.glyph) {
    el('text', {
      x: 0, y: size * 0.04, 'font-size': size * 0.78, 'text-anchor': 'middle',
      'dominant-baseline': 'central', fill: colour,
      stroke: light ? '#111' : '#f4f4f4', 'stroke-width': size * 0.03,
      'paint-order': 'stroke', class: 'glyph',
    }, g).textContent = kind.glyph + '\uFE0E';
  } else {
    el('circle', {
      r: size * 0.36, fill: colour, stroke: light ? '#222' : '#f0f0f0',
      'stroke-width': size * 0.04,
    }, g);
    el('text', {
      x: 0, y: size * 0.02, 'font-size': size * 0.4, 'font-weight': 'bold',
      'text-anchor': 'middle', 'dominant-baseline': 'central',
      fill: light ? '#111' : '#fff', class: 'letter',
    }, g).textContent = letter;
  }
  return g;
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
    this.svg = el('svg', { class: 'board', role: 'img', 'aria-label': `${variant.title} board` });
    container.appendChild(this.svg);
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
  }

  setForward(forward) {
    this.forward = forward;
    this.render();
  }

  update(game) {
    this.game = game;
    if (this.selected && !this.movesFrom(this.selected).length) this.selected = null;
    this.render();
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
    const [x, y] = [Math.floor(p.x / S), Math.floor(p.y / S)];
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

  pointerDown(e) {
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
