// Unit tests of the client's pure parts: a View turned into board state,
// cards, the choice of seat on a shared device, the move list, the lobby's
// bookkeeping. No browser, no server.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { HIDDEN_ROLE, boardModel, markerShape, piecesDiff, seatColor } from '../src/boardmodel.ts';
import { cardFace, cardPiece } from '../src/cards.ts';
import { optionsLine, playersLine } from '../src/challenges.ts';
import {
  SEAT_CHOICES,
  computerLabel,
  defaultSeats,
  isLocalHost,
  playPath,
  playersFromOption,
  seatKind,
  seatNames,
  storedFromCreated,
} from '../src/lobby.ts';
import { escapeHtml, renderInline, renderMarkdown, safeUrl } from '../src/markdown.ts';
import { withoutTitle } from '../src/rules.ts';
import { needsPrivacyScreen, seatToShow } from '../src/seats.ts';
import { type KeyValue, loadGame, loadName, localSeats, saveGame, saveName, storedGameIds } from '../src/store.ts';
import type { ActionInfo, BoardView, MarkerDrawing, View, VariantInfo } from '../src/types.ts';
import { actionLabel, commonPrefix, groupActions, logRows, outcomeText, outcomeWords, turnText } from '../src/view.ts';

const SEATS = [
  { name: 'White', colour: 'white' },
  { name: 'Black', colour: 'black' },
];

function view(parts: Partial<View> = {}): View {
  return { variant: 'chess', viewer: { seat: 0 }, seats: SEATS, log: [], to_act: [0], actions: [], ...parts };
}

const move = (text: string, promotion?: string): ActionInfo => ({
  text,
  from: text.slice(0, 2),
  to: text.slice(2, 4),
  ...(promotion ? { promotion } : {}),
});

describe('boardModel', () => {
  test('pieces come from the listed squares, in chessground roles and colours', () => {
    const m = boardModel(
      view({
        board: {
          files: 8,
          ranks: 8,
          squares: [
            { square: 'e1', piece: { colour: 'white', role: 'king' } },
            { square: 'd8', piece: { colour: 'black', role: 'queen' } },
            { square: 'z9', piece: { colour: 'black', role: 'queen' } },
          ],
        },
      }),
    );
    assert.deepEqual([...m.pieces], [
      ['e1', { role: 'king', color: 'white' }],
      ['d8', { role: 'queen', color: 'black' }],
    ]);
  });

  test('destinations are exactly the actions with from and to; castling both ways as given', () => {
    const m = boardModel(view({ actions: [move('e2e4'), move('e2e3'), move('g1f3'), move('e1g1'), move('e1h1')] }));
    assert.deepEqual([...m.dests], [
      ['e2', ['e4', 'e3']],
      ['g1', ['f3']],
      ['e1', ['g1', 'h1']],
    ]);
    assert.equal(m.moves.get('e1h1')![0].text, 'e1h1');
  });

  test('promotions share one destination and keep every choice', () => {
    const m = boardModel(view({ actions: ['q', 'r', 'b', 'n'].map(p => move(`a7a8${p}`, p)) }));
    assert.deepEqual(m.dests.get('a7'), ['a8']);
    assert.deepEqual(
      m.moves.get('a7a8')!.map(a => a.promotion),
      ['q', 'r', 'b', 'n'],
    );
  });

  test('square-only actions are board targets; check and inactive squares get classes', () => {
    const m = boardModel(
      view({
        actions: [{ text: 'bury c6', square: 'c6' }, { text: 'done' }],
        check: 'e1',
        board: { files: 8, ranks: 8, active: ['c6', 'e1'], squares: [] },
      }),
    );
    assert.deepEqual([...m.squareActions.keys()], ['c6']);
    assert.equal(m.classes.get('c6'), 'target');
    assert.equal(m.classes.get('e1'), 'check');
    assert.equal(m.classes.get('a1'), 'inactive');
    assert.equal(m.check, 'e1');
    assert.equal(m.dests.size, 0);
    assert.equal(m.movableColor, undefined, 'nothing may be picked up without a move action');
  });

  test('the board faces the viewer: Black sees it from the black side, a spectator from White', () => {
    assert.equal(boardModel(view({ viewer: { seat: 1 } })).orientation, 'black');
    assert.equal(boardModel(view({ viewer: 'spectator' })).orientation, 'white');
    assert.equal(seatColor(view(), null), 'white');
  });

  test('turn colour and movable colour follow the acting seat and its pieces', () => {
    const m = boardModel(
      view({
        viewer: { seat: 1 },
        to_act: [1],
        actions: [move('e7e5')],
        board: { files: 8, ranks: 8, squares: [{ square: 'e7', piece: { colour: 'black', role: 'pawn' } }] },
      }),
    );
    assert.equal(m.turnColor, 'black');
    assert.equal(m.movableColor, 'black');
  });

  /** A solitaire's board: a white king on a7, a black bishop on b6. */
  const kingAndBlackBishop: BoardView = {
    files: 8,
    ranks: 8,
    squares: [
      { square: 'a7', piece: { colour: 'white', role: 'king' } },
      { square: 'b6', piece: { colour: 'black', role: 'bishop' } },
    ],
  };

  test('a seat of no colour (a solitaire) that may move only black pieces has Black to move on the board', () => {
    // Neighbour and Parade: one colourless seat moves pieces of both colours. When every piece with a
    // move is Black, chessground picks a piece up only if its turn colour is Black too.
    const m = boardModel(
      view({
        seats: [{ name: 'Player' }],
        actions: [move('b6c5')],
        board: kingAndBlackBishop,
      }),
    );
    assert.equal(m.orientation, 'white');
    assert.equal(m.movableColor, 'black');
    assert.equal(m.turnColor, 'black', 'the side that may move is the side to move');
  });

  test('pieces of both colours to move: chessground lets either be picked up, whatever the turn colour', () => {
    const m = boardModel(
      view({
        seats: [{ name: 'Player' }],
        actions: [move('a7a6'), move('b6c5')],
        board: kingAndBlackBishop,
      }),
    );
    assert.equal(m.movableColor, 'both');
    assert.equal(m.turnColor, 'white', 'the acting seat’s colour (white when it has none)');
  });

  test('a hidden piece is a disc with its label; an unknown role too', () => {
    const m = boardModel(
      view({
        board: {
          files: 8,
          ranks: 8,
          squares: [
            { square: 'c3', piece: { colour: 'black', label: '7' } },
            { square: 'd4', piece: { colour: 'white', role: 'checker' } },
          ],
        },
      }),
    );
    assert.deepEqual(m.pieces.get('c3'), { role: HIDDEN_ROLE, color: 'black' });
    assert.deepEqual(m.pieces.get('d4'), { role: HIDDEN_ROLE, color: 'white' });
    const labels = m.shapes.map(s => s.customSvg!.html);
    assert.ok(labels[0].includes('>7</text>'), labels[0]);
    assert.ok(labels[1].includes('>C</text>'), labels[1]);
  });

  test('last move keeps only real squares (a drop has no origin)', () => {
    assert.deepEqual(boardModel(view({ last_move: ['', 'e4'] })).lastMove, ['e4']);
    assert.equal(boardModel(view({ last_move: [] })).lastMove, undefined);
  });
});

describe('markers', () => {
  test('each shape the view declares has its own drawing, with its text or count, escaped', () => {
    const html = (draw: MarkerDrawing[], extra = {}) => markerShape('e4', { kind: 'k', draw, ...extra }).customSvg!.html;
    assert.match(html([{ shape: 'badge', corner: 'bottom_left', fill: 'gold', rim: '#7a5c00', text: 'Z' }]), /marker-k.*#d4a017.*>Z</);
    assert.match(html([{ shape: 'stack', fill: 'red', text: '3' }]), /ellipse.*#c62828.*>3</);
    assert.match(html([{ shape: 'ring', colour: 'green' }]), /circle.*stroke="#2e7d32"/);
    assert.match(html([{ shape: 'disc', fill: 'red', text: 'queen-side chooses' }]), />queen-side<.*>chooses</);
    assert.match(html([{ shape: 'frame', fill: '#8d6e63', rim: '#5d4037' }]), /<rect [^>]*stroke="#5d4037"/);
    assert.match(html([{ shape: 'tint', fill: '#ffb300' }]), /<rect [^>]*fill="#ffb300" fill-opacity/);
    assert.match(html([{ shape: 'badge', corner: 'top_left', fill: '#455a64', text: '<b>' }]), /&lt;b&gt;/);
    assert.match(markerShape('e4', { kind: 'glow' }).customSvg!.html, /marker-glow.*>G</, 'no layers: the initial of its kind');
    assert.match(markerShape('e4', { kind: 'label', text: 'last' }).customSvg!.html, />last</, 'no layers: its text');
    assert.equal(markerShape('e4', { kind: 'k' }).orig, 'e4');
  });
});

describe('piecesDiff', () => {
  test('removes, adds and replaces only what changed', () => {
    const before = new Map([
      ['e2', { role: 'pawn', color: 'white' }],
      ['d7', { role: 'pawn', color: 'black' }],
      ['a1', { role: 'rook', color: 'white' }],
    ] as const);
    const after = new Map([
      ['e4', { role: 'pawn', color: 'white' }],
      ['d7', { role: 'queen', color: 'black' }],
      ['a1', { role: 'rook', color: 'white' }],
    ] as const);
    assert.deepEqual([...piecesDiff(new Map(before), new Map(after))], [
      ['e2', undefined],
      ['e4', { role: 'pawn', color: 'white' }],
      ['d7', { role: 'queen', color: 'black' }],
    ]);
  });
});

describe('cards', () => {
  test('short notation becomes faces with suit colours', () => {
    assert.deepEqual(cardFace('9h'), { rank: '9', suit: '♥', red: true, text: '9♥' });
    assert.equal(cardFace('10s').text, '10♠');
    assert.equal(cardFace('qh').text, 'Q♥');
    assert.equal(cardFace('Td').text, '10♦');
    assert.equal(cardFace('ac').red, false);
    assert.equal(cardFace('joker').text, 'joker');
    assert.deepEqual(['8h', '2s', '6h', 'qs', 'kh', 'qd', 'jc', '10c'].map(cardPiece), ['♘', '♟', '○', '♛', '♔', undefined, undefined, '♜']);
  });

  test('action labels show card faces unless the game labels them', () => {
    assert.equal(actionLabel({ text: 'play 9h' }), 'play 9♥');
    assert.equal(actionLabel({ text: 'bury c6' }), 'bury c6');
    assert.equal(actionLabel({ text: 'pass', label: 'Pass' }), 'Pass');
  });
});

describe('several people on one device', () => {
  const acting = (seat: number, hasActions: boolean) =>
    view({ viewer: { seat }, to_act: [seat === 0 ? (hasActions ? 0 : 1) : hasActions ? 1 : 0], actions: hasActions ? [move('e2e4')] : [] });

  test('the page shows the local seat that has actions', () => {
    const views = new Map([
      [0, acting(0, false)],
      [1, acting(1, true)],
    ]);
    assert.equal(seatToShow(views, [0, 1], 0), 1);
    assert.equal(seatToShow(views, [0], 0), 0, 'a seat not played here is never shown');
  });

  test('the seat shown keeps the page while it still has actions (simultaneous choices)', () => {
    const both = new Map([
      [0, view({ viewer: { seat: 0 }, to_act: [0, 1], actions: [{ text: 'done' }] })],
      [1, view({ viewer: { seat: 1 }, to_act: [0, 1], actions: [{ text: 'done' }] })],
    ]);
    assert.equal(seatToShow(both, [0, 1], 1), 1);
    assert.equal(seatToShow(both, [0, 1], null), 0);
  });

  test('when nobody here may act, the page stays where it was', () => {
    const over = new Map([
      [0, view({ to_act: [] })],
      [1, view({ viewer: { seat: 1 }, to_act: [] })],
    ]);
    assert.equal(seatToShow(over, [0, 1], 1), 1);
    assert.equal(seatToShow(over, [0, 1], null), 0);
    assert.equal(seatToShow(new Map(), [], null), null);
  });

  test('a privacy screen stands between seats only in hidden-information games shared on one device', () => {
    assert.equal(needsPrivacyScreen(true, [0, 1], 0, 1), true);
    assert.equal(needsPrivacyScreen(true, [0, 1], null, 0), true, 'a fresh page shows nobody’s secrets first');
    assert.equal(needsPrivacyScreen(true, [0, 1], 1, 1), false);
    assert.equal(needsPrivacyScreen(false, [0, 1], 0, 1), false);
    assert.equal(needsPrivacyScreen(true, [0], null, 0), false);
  });
});

describe('the move list', () => {
  const entry = (seat: number | undefined, text: string) => (seat === undefined ? { text } : { seat, text });

  test('two-seat games pair moves into numbered rounds', () => {
    const rows = logRows(view({ log: [entry(0, 'e4'), entry(1, 'e5'), entry(0, 'Nf3')] }));
    assert.deepEqual(
      rows.map(r => [r.number, r.cells.map(c => c.map(e => e.text).join(','))]),
      [
        [1, ['e4', 'e5']],
        [2, ['Nf3', '']],
      ],
    );
  });

  test('a game that Black starts opens with an empty White cell; a horde shares one cell', () => {
    const rows = logRows(view({ log: [entry(1, 'e5'), entry(0, 'd4'), entry(0, 'Nc3'), entry(1, 'exd4')] }));
    assert.deepEqual(
      rows.map(r => r.cells.map(c => c.map(e => e.text).join(','))),
      [
        ['', 'e5'],
        ['d4,Nc3', 'exd4'],
      ],
    );
  });

  test('announcements without a seat make a plain list', () => {
    const rows = logRows(view({ log: [entry(0, 'e4'), entry(undefined, 'no zombie at e2')] }));
    assert.deepEqual(
      rows.map(r => [r.number, r.cells[0][0].text]),
      [
        [undefined, 'e4'],
        [undefined, 'no zombie at e2'],
      ],
    );
  });
});

describe('status words', () => {
  test('outcomes name the winners, or say draw, with the reason and scores', () => {
    assert.equal(outcomeText(view(), { winners: [1], reason: 'checkmate' }), 'Black wins (checkmate)');
    assert.equal(outcomeText(view(), { winners: [], reason: 'stalemate' }), 'Draw (stalemate)');
    assert.equal(outcomeWords(['Player'], { winners: [], reason: 'no piece can move', scores: [0] }), 'Player lost (no piece can move) · scores: Player 0');
    assert.equal(
      outcomeText(view(), { winners: [0, 1], reason: 'together', scores: [3, 4] }),
      'White and Black win (together) · scores: White 3, Black 4',
    );
  });

  test('whose turn, as the viewer sees it', () => {
    assert.equal(turnText(view()), 'Your turn');
    assert.equal(turnText(view({ to_act: [1] })), 'Waiting for Black');
    assert.equal(turnText(view({ viewer: 'spectator', to_act: [1] })), 'Black to play');
    assert.equal(turnText(view({ to_act: [0, 1] })), 'Your turn (with Black)');
    assert.equal(turnText(view({ outcome: { winners: [0], reason: 'checkmate' } })), 'Game over');
  });
});

describe('the lobby', () => {
  const variant: VariantInfo = {
    name: 'chess',
    title: 'Chess',
    seats: ['White', 'Black'],
    options: [],
    experimental: false,
    hidden_information: false,
    pgn: true,
    summary: '',
    min_players: 2,
    max_players: 2,
    analysis: false,
  };

  test('seat choices map to the API’s seat kinds; by default I play the first seat against the computer', () => {
    assert.equal(seatKind('me'), 'human');
    assert.equal(seatKind('local'), 'human');
    assert.equal(seatKind('open'), 'open');
    assert.equal(seatKind('computer:level2'), 'computer:level2');
    assert.deepEqual(defaultSeats(variant), ['me', 'computer:level4'], 'medium');
  });

  test('the computer comes in five choices, sent as computer:LEVEL and named on the game page', () => {
    const computers = SEAT_CHOICES.filter(([value]) => value.startsWith('computer'));
    assert.deepEqual(computers, [
      ['computer:random', 'Computer (random moves)'],
      ['computer:level2', 'Computer (easy)'],
      ['computer:level4', 'Computer (medium)'],
      ['computer:level6', 'Computer (hard)'],
      ['computer:level8', 'Computer (strongest)'],
    ]);
    assert.deepEqual(
      computers.map(([value]) => seatKind(value)),
      ['computer:random', 'computer:level2', 'computer:level4', 'computer:level6', 'computer:level8'],
    );
    assert.equal(computerLabel('computer:random'), 'computer (random moves)');
    assert.equal(computerLabel('computer:level1'), 'computer (random moves)');
    assert.equal(computerLabel('computer'), 'computer (easy)', 'the server’s default level is level2');
    assert.equal(computerLabel('computer:level2'), 'computer (easy)');
    assert.equal(computerLabel('computer:level3'), 'computer (level 3)');
    assert.equal(computerLabel('computer:level4'), 'computer (medium)');
    assert.equal(computerLabel('computer:level8'), 'computer (strongest)');
    assert.equal(computerLabel('computer:level9'), 'computer (level9)');
    assert.equal(computerLabel('open'), null);
    assert.equal(computerLabel('human'), null);
  });

  test('an invite link made on localhost works only on this computer', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]']) assert.ok(isLocalHost(host), host);
    for (const host of ['192.168.1.20', 'chess.example', '10.0.0.5', '[fe80::1]']) assert.ok(!isLocalHost(host), host);
  });

  test('a created game keeps local tokens and open seats’ invites, and opens with the first token', () => {
    const created = {
      id: 'g1',
      variant: 'chess',
      seats: [
        { seat: 0, name: 'White', kind: 'open', token: 'tw', invite: '/play/g1?token=tw' },
        { seat: 1, name: 'Black', kind: 'human', token: 'tb', invite: '/play/g1?token=tb' },
      ],
    };
    const stored = storedFromCreated(created, 'Chess');
    assert.deepEqual(stored.tokens, { '1': 'tb' });
    assert.deepEqual(stored.invites, [{ seat: 0, name: 'White', path: '/play/g1?token=tw' }]);
    assert.equal(playPath(created, stored), '/play/g1?token=tb');
    assert.equal(playPath(created, { tokens: {}, invites: [] }), '/play/g1');
  });
});

describe('the store', () => {
  class MemoryStorage implements KeyValue {
    data = new Map<string, string>();
    getItem = (k: string) => this.data.get(k) ?? null;
    setItem = (k: string, v: string) => void this.data.set(k, v);
    key = (i: number) => [...this.data.keys()][i] ?? null;
    get length() {
      return this.data.size;
    }
  }

  test('games round-trip by id, newest first; a damaged entry reads as empty', () => {
    const storage = new MemoryStorage();
    saveGame(storage, 'old', { tokens: { '1': 'b', '0': 'a' }, invites: [], saved: 1 });
    saveGame(storage, 'new', { tokens: {}, invites: [], title: 'Chess', saved: 2 });
    storage.setItem('unrelated', 'x');
    assert.deepEqual(loadGame(storage, 'old').tokens, { '0': 'a', '1': 'b' });
    assert.deepEqual(localSeats(loadGame(storage, 'old')), [0, 1]);
    assert.equal(loadGame(storage, 'new').title, 'Chess');
    assert.deepEqual(storedGameIds(storage), ['new', 'old']);
    storage.setItem('chesskit:game:bad', '{not json');
    assert.deepEqual(loadGame(storage, 'bad'), { tokens: {}, invites: [] });
    assert.deepEqual(loadGame(storage, 'missing'), { tokens: {}, invites: [] });
  });
});

describe('the markdown of the rules documents', () => {
  test('headings, paragraphs, bold, italic and code spans', () => {
    assert.equal(
      renderMarkdown('# Zombie Chess\n\nA **captured** piece can *come back*,\nsee `zombie_turn`.\n\n## Rules'),
      '<h1>Zombie Chess</h1>\n<p>A <strong>captured</strong> piece can <em>come back</em>,\nsee <code>zombie_turn</code>.</p>\n<h2>Rules</h2>',
    );
    assert.equal(renderInline('snake_case_words and _italic_ and __bold__'), 'snake_case_words and <em>italic</em> and <strong>bold</strong>');
    assert.equal(renderInline('2 * 3 * 4 and ***both***'), '2 * 3 * 4 and <strong><em>both</em></strong>');
    assert.equal(renderInline('\\*not italic\\* and `*not* <b>` in code'), '*not italic* and <code>*not* &lt;b&gt;</code> in code');
    assert.equal(renderInline('`` a ` b ``'), '<code>a ` b</code>');
  });

  test('every HTML character of the source is escaped: no tag, attribute or entity gets through', () => {
    const html = renderMarkdown('<script>alert("x")</script>\n\n<img src=x onerror=alert(1)> & &amp; it\'s');
    assert.ok(!html.includes('<script'), html);
    assert.ok(!html.includes('<img'), html);
    assert.equal(
      html,
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>\n<p>&lt;img src=x onerror=alert(1)&gt; &amp; &amp;amp; it&#39;s</p>',
    );
    assert.equal(renderMarkdown('    <script>x</script>'), '<pre><code>&lt;script&gt;x&lt;/script&gt;</code></pre>');
    assert.equal(renderMarkdown('```html\n<script>x</script>\n```'), '<pre><code>&lt;script&gt;x&lt;/script&gt;</code></pre>');
    assert.equal(renderMarkdown('| a |\n| --- |\n| <script> |'), '<table>\n<thead>\n<tr><th>a</th></tr>\n</thead>\n<tbody>\n<tr><td>&lt;script&gt;</td></tr>\n</tbody>\n</table>');
    assert.equal(escapeHtml(`<>&"'`), '&lt;&gt;&amp;&quot;&#39;');
  });

  test('links keep only safe targets, and a quote cannot leave the attribute', () => {
    assert.equal(
      renderInline('see [the book](https://example.com/a?b=1&c=2)'),
      'see <a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">the book</a>',
    );
    assert.equal(renderInline('[run](javascript:alert)'), 'run', 'a javascript: link is its text alone');
    assert.equal(renderInline('[run](JavaScript:alert)'), 'run');
    assert.equal(renderInline('[x](data:text/html;base64,PHNjcmlwdD4=)'), 'x');
    assert.ok(!renderInline('[x](https://a.b/"onmouseover="alert)').includes('"onmouseover'), 'the quote is escaped');
    assert.ok(safeUrl('rules.md#castling') && safeUrl('/play/x') && safeUrl('#top') && safeUrl('mailto:a@b.c'));
    assert.ok(!safeUrl('javascript:alert(1)') && !safeUrl('vbscript:x') && !safeUrl('data:text/html,x'));
  });

  test('lists: bullets with continuation lines, numbered from their start, nested, loose', () => {
    assert.equal(
      renderMarkdown('Options:\n- `id`: the number;\n  -1 draws one.\n- `cards`: eight cards'),
      '<p>Options:</p>\n<ul>\n<li><code>id</code>: the number;\n-1 draws one.</li>\n<li><code>cards</code>: eight cards</li>\n</ul>',
    );
    assert.equal(renderMarkdown('3. three\n4. four'), '<ol start="3">\n<li>three</li>\n<li>four</li>\n</ol>');
    assert.equal(
      renderMarkdown('* outer\n  * inner\n* next'),
      '<ul>\n<li>outer\n<ul>\n<li>inner</li>\n</ul></li>\n<li>next</li>\n</ul>',
    );
    assert.equal(renderMarkdown('* one\n\n* two'), '<ul>\n<li><p>one</p></li>\n<li><p>two</p></li>\n</ul>');
    assert.equal(renderMarkdown('**Setup.** Not a list.'), '<p><strong>Setup.</strong> Not a list.</p>');
  });

  test('tables with alignment, code cells and escaped bars; rules and quotes', () => {
    assert.equal(
      renderMarkdown('| text | when |\n|:---|---:|\n| `guess c8 N` | start \\| end |\n| short |'),
      '<table>\n<thead>\n<tr><th style="text-align: left">text</th><th style="text-align: right">when</th></tr>\n</thead>\n' +
        '<tbody>\n<tr><td style="text-align: left"><code>guess c8 N</code></td><td style="text-align: right">start | end</td></tr>\n' +
        '<tr><td style="text-align: left">short</td><td style="text-align: right"></td></tr>\n</tbody>\n</table>',
    );
    assert.equal(renderMarkdown('a\n\n---\n\n> quoted *text*'), '<p>a</p>\n<hr>\n<blockquote>\n<p>quoted <em>text</em></p>\n</blockquote>');
  });

  test('every rules document in docs/games renders, with only the renderer’s own tags', () => {
    const dir = new URL('../../docs/games/', import.meta.url);
    const allowed = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li', 'code', 'pre', 'strong', 'em', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 'blockquote']);
    const files = readdirSync(dir).filter(f => f.endsWith('.md'));
    assert.ok(files.includes('chess.md'), `${files}`);
    for (const file of files) {
      const html = renderMarkdown(readFileSync(new URL(file, dir), 'utf8'));
      const tags = new Set([...html.matchAll(/<\/?([a-z0-9]+)/g)].map(m => m[1]));
      for (const tag of tags) assert.ok(allowed.has(tag), `${file}: <${tag}>`);
      assert.ok(tags.has('h2') && tags.has('p'), `${file}: ${[...tags]}`);
      // Every opened tag is closed: the counts match.
      for (const tag of tags) {
        if (tag === 'hr') continue;
        const opened = html.split(new RegExp(`<${tag}[ >]`)).length - 1;
        const closed = html.split(`</${tag}>`).length - 1;
        assert.equal(opened, closed, `${file}: <${tag}> opened ${opened} times, closed ${closed}`);
      }
    }
  });

  test('the rules panel leaves out the document’s title, which the panel names already', () => {
    assert.equal(withoutTitle('# Zombie Chess\n\nVariant name `zombie`.'), '\nVariant name `zombie`.');
    assert.equal(withoutTitle('## Rules\ntext'), '## Rules\ntext');
  });
});

describe('many actions of one kind', () => {
  test('actions group by their first word, in the order the game lists them', () => {
    const actions = ['count 1', 'count 2', 'impossible', 'count 3', 'give up'].map(text => ({ text }));
    assert.deepEqual(
      groupActions(actions).map(([word, group]) => [word, group.map(a => a.text)]),
      [
        ['count', ['count 1', 'count 2', 'count 3']],
        ['impossible', ['impossible']],
        ['give', ['give up']],
      ],
    );
  });

  test('a picker says the words every label starts with once, cut at a whole word', () => {
    assert.equal(commonPrefix(['Place checkers 1 to 8 as RNBQKBNR', 'Place checkers 1 to 8 as RBBQKNNR']), 'Place checkers 1 to 8 as ');
    assert.equal(commonPrefix(['1 move', '10 moves']), '');
    assert.equal(commonPrefix(['Guess: the checker on a8 is a king', 'Guess: the checker on a8 is a knight']), 'Guess: the checker on a8 is a ');
    assert.equal(commonPrefix(['only one']), '');
  });
});

describe('the lobby and a players option', () => {
  const golf: VariantInfo = {
    name: 'golf',
    title: 'Chess Golf',
    seats: ['Player 1', 'Player 2'],
    options: [{ name: 'players', type: 'int', min: 1, max: 8, default: 2, help: '' }],
    experimental: false,
    hidden_information: true,
    pgn: true,
    summary: '',
    min_players: 1,
    max_players: 8,
    analysis: false,
  };
  test('the seats are named Player 1 to Player N, or the variant’s own names at its default count', () => {
    assert.deepEqual(seatNames(golf, 3), ['Player 1', 'Player 2', 'Player 3']);
    assert.deepEqual(seatNames(golf, 1), ['Player 1']);
    assert.deepEqual(seatNames({ ...golf, seats: ['North', 'South'] }, 2), ['North', 'South']);
  });
  test('the number is kept within the option’s bounds; an empty field changes nothing', () => {
    const spec = golf.options[0];
    assert.equal(playersFromOption(spec, '3'), 3);
    assert.equal(playersFromOption(spec, '12'), 8);
    assert.equal(playersFromOption(spec, '0'), 1);
    assert.equal(playersFromOption(spec, ''), null);
    assert.equal(playersFromOption(spec, 'x'), null);
    assert.equal(playersFromOption(undefined, '3'), null);
  });
});

describe('the lobby with strangers', () => {
  test('a listed game names who holds each seat, and its options in words', () => {
    const seats = [
      { seat: 0, name: 'White', kind: 'human', player: 'Ada' },
      { seat: 1, name: 'Black', kind: 'open' },
    ];
    assert.equal(playersLine(seats), 'Ada (White)', 'a free seat names nobody');
    assert.equal(playersLine([seats[0], { ...seats[1], player: 'Bob' }]), 'Ada (White) and Bob (Black)');
    assert.equal(optionsLine({}), '');
    assert.equal(optionsLine({ hand_size: 5, clock: true }), 'Hand size 5, Clock true');
  });

  test('the name is kept trimmed, apart from the games', () => {
    const map = new Map<string, string>();
    const storage: KeyValue = {
      getItem: k => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      get length() {
        return map.size;
      },
      key: i => [...map.keys()][i] ?? null,
    };
    assert.equal(loadName(storage), '');
    saveName(storage, '  Ada ');
    assert.equal(loadName(storage), 'Ada');
    assert.deepEqual(storedGameIds(storage), [], 'the name is no game');
    saveGame(storage, 'g1', { tokens: { '0': 't' }, invites: [], challenge: true });
    assert.equal(loadGame(storage, 'g1').challenge, true);
  });
});
