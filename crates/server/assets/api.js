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
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;

/** Live updates: calls `onUpdate` whenever the game changes. Returns a
 *  function that stops listening. */
export function watch(id, onUpdate) {
  const es = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  es.addEventListener('update', (e) => {
    try { onUpdate(JSON.parse(e.data)); } catch { onUpdate({}); }
  });
  return () => es.close();
}

// Seat tokens live in localStorage: per game, seat index -> token.
const key = (id) => `quadrille.seats.${id}`;

/** The tokens held for a game, as {seat: token}. */
export function heldSeats(id) {
  try { return JSON.parse(localStorage.getItem(key(id))) || {}; } catch { return {}; }
}

export function holdSeat(id, seat, token) {
  const seats = heldSeats(id);
  seats[seat] = token;
  localStorage.setItem(key(id), JSON.stringify(seats));
}

export function heldTokens(id) {
  return Object.values(heldSeats(id));
}

// Invitations this browser handed out (the creator's), per game: seat
// index -> code. A code is no key: it is exchanged once for the seat's
// token by whoever opens the link.
const inviteKey = (id) => `quadrille.invites.${id}`;

export function invites(id) {
  try { return JSON.parse(localStorage.getItem(inviteKey(id))) || {}; } catch { return {}; }
}

export function keepInvite(id, seat, code) {
  const all = invites(id);
  all[seat] = code;
  localStorage.setItem(inviteKey(id), JSON.stringify(all));
}
