// Learn by playing: the top of a game's panel gives the rules in a few
// lines (the variant's summary) and the rule book's worked examples as small
// boards. Each board is set up at the example's position by the server; the
// player makes the move the book describes, and every move goes to the
// server, which replays the example through the real game and answers as
// the referee (docs/web.md, "Learn by playing"). Nothing is created or stored.

import { ApiError, fetchExamples, tryExample } from './api.ts';
import { Board } from './board.ts';
import { boardModel, seatColor, viewerSeat } from './boardmodel.ts';
import { h } from './dom.ts';
import { AssignmentPicker, assignActions } from './pickers/assignment.ts';
import type { ActionInfo, BookExample, ExampleAnswer, VariantInfo, View } from './types.ts';

/**
 * The section "The rules in a few lines" with "Try the book's examples"
 * under it (open at first, loaded at once; hidden when the books give the
 * game no example). Keep the element across redraws: the boards keep the
 * moves tried on them.
 */
export function learnSection(variant: VariantInfo): HTMLElement {
  const list = h('div.examples-list');
  const examples = h(
    'details.examples',
    { open: true, hidden: true, ontoggle: () => boards.forEach(b => b.redraw()) },
    h('summary', {}, "Try the book's examples"),
    list,
  );
  const boards: Board[] = [];
  void fetchExamples(variant.name).then(
    found => {
      if (found.length === 0) return;
      list.replaceChildren(...found.map((example, index) => exampleCard(variant.name, example, index, boards)));
      examples.hidden = false;
    },
    (e: Error) => {
      // A server that knows no examples for the game (an older one): nothing to try, so nothing shown.
      if (e instanceof ApiError && e.status === 404) return;
      list.replaceChildren(h('p.note', {}, `Cannot load the examples: ${e.message}`));
      examples.hidden = false;
    },
  );
  return h(
    'section.learn',
    { 'data-variant': variant.name },
    h('h2', {}, 'The rules in a few lines'),
    h('p.summary', {}, variant.summary),
    examples,
  );
}

/** One example: what it shows, what to try, its board, and the referee's answer. */
function exampleCard(variant: string, example: BookExample, index: number, boards: Board[]): HTMLElement {
  const boardEl = h('div.board.example-board', { 'data-example': String(index) });
  const answer = h('p.answer', { 'aria-live': 'polite' });
  const buttons = h('div.example-actions');
  const tried: string[] = [];
  let busy = false;
  const assignment = new AssignmentPicker(a => void move(a));
  const show = (view: View) => {
    board.update(boardModel(view));
    const button = (a: ActionInfo) =>
      h('button.example-action', { type: 'button', 'data-action': a.text, onclick: () => void move(a) }, a.label ?? a.text);
    const assigns = assignActions(view.actions);
    // An assignment among many (Masquerade's 120) is a picture, as on the game page, not 120 buttons.
    const picker = assigns.length > 1 ? [assignmentPicker(assignment, view, assigns)] : [];
    const rest = offBoardActions(view).filter(a => !assigns.includes(a) || picker.length === 0);
    buttons.replaceChildren(...picker, ...rest.map(button));
  };
  const say = (verdict: string, message: string) => {
    answer.dataset.verdict = verdict;
    answer.textContent = message;
  };
  const move = async (action: ActionInfo) => {
    if (busy) return;
    busy = true;
    tried.push(action.text);
    let reply: ExampleAnswer;
    try {
      reply = await tryExample(variant, index, tried);
    } catch (e) {
      tried.pop();
      say('error', `Cannot ask the referee: ${(e as Error).message}`);
      show(example.view);
      busy = false;
      return;
    }
    say(reply.verdict, reply.message);
    if (reply.verdict === 'refused' || reply.verdict === 'different') {
      // Not the book's line: the board goes back to where the player can try again.
      if (reply.verdict === 'refused') tried.pop();
      else tried.length = 0;
      show(reply.verdict === 'refused' ? reply.view : example.view);
    } else {
      show(reply.view);
    }
    busy = false;
  };
  const board = new Board(boardEl, action => void move(action));
  boards.push(board);
  const again = () => {
    tried.length = 0;
    say('', '');
    show(example.view);
  };
  show(example.view);
  return h(
    'article.example',
    { 'data-example': String(index), 'data-title': example.title },
    h('h3', {}, example.title),
    h('p.clause', {}, 'Shows: ', h('q', {}, example.clause.replace(/^"|"$/g, '')), ` (${example.source})`),
    h('p.prompt', {}, example.prompt),
    boardEl,
    buttons,
    answer,
    h('button.again', { type: 'button', onclick: again }, 'Start again'),
  );
}

/** The assignment picture for the seat whose view this is: it fills in the opponent's table. */
function assignmentPicker(picker: AssignmentPicker, view: View, assigns: ActionInfo[]): HTMLElement {
  const enemy = seatColor(view, viewerSeat(view)) === 'white' ? 'black' : 'white';
  const el = picker.render(assigns, enemy, enemy === 'white' ? 'White' : 'Black', false);
  // Marked as the example's: a game page in its own assignment shows the game's picker too.
  el.classList.add('example-picker');
  return el;
}

/** The actions a player takes off the board (Parade's "add"): neither a move nor a square. */
function offBoardActions(view: View): ActionInfo[] {
  return view.actions.filter(a => !a.from && !a.to && !a.square);
}
