// The entry point: the lobby at `/`, a game at `/play/<id>`.

import { gamePage } from './game.ts';
import { lobbyPage } from './lobby.ts';

const root = document.getElementById('app')!;
const play = /^\/play\/([^/]+)\/?$/.exec(location.pathname);
if (play) {
  void gamePage(root, decodeURIComponent(play[1]), new URLSearchParams(location.search).get('token'));
} else {
  void lobbyPage(root);
}
