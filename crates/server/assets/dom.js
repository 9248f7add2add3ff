// Small DOM helpers shared by the pages.

import { el as svgEl, pieceGraphic } from './board.js';

/** Builds an HTML element: h('div', {class: 'x'}, child, 'text', ...). */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, '');
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

export function errorBox(err) {
  return h('p', { class: 'error', role: 'alert' }, err.message || String(err));
}

/** A small inline SVG of a piece, for the legend and the chooser. */
export function pieceIcon(variant, army, letter, size = 34) {
  const svg = svgEl('svg', { width: size, height: size, viewBox: '-30 -30 60 60', class: 'icon', 'aria-hidden': 'true' });
  svg.appendChild(pieceGraphic(variant, army, letter, 60));
  return svg;
}

export function ordinal(n) {
  return ['1st', '2nd', '3rd', '4th'][n] || `${n + 1}th`;
}

/** A time in milliseconds as m:ss (h:mm:ss from an hour; tenths under 10 s). */
export function clockText(ms) {
  const t = Math.max(0, ms);
  const s = Math.floor(t / 1000);
  if (t < 10000) return `0:0${s}.${Math.floor((t % 1000) / 100)}`;
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}
