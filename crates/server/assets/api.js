// The server's JSON API (docs/api.md) and the seat tokens this browser holds.

/** Calls the API; resolves to the JSON body or throws an Error whose
 *  message is the server's explanation. */
export async function call(method, path, body, tokens) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (tokens && tokens.length) headers['x-seat-tokens'] = tokens.join(',');
  const resp = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await resp.text();
  let data;
  try { data = JSON.parse(text); } catch { data = text; }
  if (!resp.ok) {
    const err = new Error(data && data.error ? data.error.message : `HTTP ${resp.status}`);
    err.code = data && data.error ? data.error.code : 'http';
    err.status = resp.status;
    throw err;
  }
  return data;
}

export const listVariants = () => call('GET', '/api/variants');
export const describeVariant = (name) => call('GET', `/api/variants/${encodeURIComponent(name)}`);
export const gameVariant = (id) => call('GET', `/api/games/${encodeURIComponent(id)}/variant`);
export const listGames = () => call('GET', '/api/games');
export const createGame = (req) => call('POST', '/api/games', req);
export const importGame = (record) => call('POST', '/api/games/import', { record });
export const getGame = (id, tokens) => call('GET', `/api/games/${encodeURIComponent(id)}`, undefined, tokens);
export const playMove = (id, move, token, ply) =>
  call('POST', `/api/games/${encodeURIComponent(id)}/moves`, { move, token, ply });
export const joinGame = (id, invite) =>
  call('POST', `/api/games/${encodeURIComponent(id)}/join`, { invite });
export const act = (id, action, token, seat) =>
  call('POST', `/api/games/${encodeURIComponent(id)}/actions`, { action, token, seat });
export const rematch = (id, token) =>
  call('POST', `/api/games/${encodeURIComponent(id)}/rematch`, { token });
export const positions = (id) => call('GET', `/api/games/${encodeURIComponent(id)}/positions`);
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
export const pgnUrl = (id) => `/api/games/${encodeURIComponent(id)}/pgn`;

/** Live updates: calls `onUpdate` whenever the game changes. Returns a
 *  function that stops listening. */
export function watch(id, onUpdate) {
  const es = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  es.addEventListener('update', (e) => {
    try { onUpdate(JSON.parse(e.data)); } catch { onUpdate({}); }
  });
  return () => es.close();
}

// What this browser keeps per game in localStorage, each a map from seat
// index to a string: the seat tokens it holds, and the invitations it
// handed out (the creator's: a code is no key, it is exchanged once for
// the seat's token by whoever opens the link).
function readSeats(key) {
  try { return JSON.parse(localStorage.getItem(key)) || {}; } catch { return {}; }
}

function writeSeat(key, seat, value) {
  const seats = readSeats(key);
  seats[seat] = value;
  localStorage.setItem(key, JSON.stringify(seats));
}

const tokensKey = (id) => `quadrille.seats.${id}`;
const invitesKey = (id) => `quadrille.invites.${id}`;

/** The tokens held for a game, as {seat: token}. */
export const heldSeats = (id) => readSeats(tokensKey(id));
export const holdSeat = (id, seat, token) => writeSeat(tokensKey(id), seat, token);
export const heldTokens = (id) => Object.values(heldSeats(id));

/** A setting of this browser (letters instead of pictures, sounds). */
export function setting(name, value) {
  const key = `quadrille.setting.${name}`;
  if (value !== undefined) localStorage.setItem(key, value ? '1' : '');
  return localStorage.getItem(key) === '1';
}

/** The invitations handed out for a game, as {seat: code}. */
export const invites = (id) => readSeats(invitesKey(id));
export const keepInvite = (id, seat, code) => writeSeat(invitesKey(id), seat, code);
