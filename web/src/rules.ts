// The rules of a game, as a panel that opens on demand: the variant's
// summary, then its rules document (docs/games/<variant>.md, from the
// server) rendered from markdown, fetched the first time it is opened.

import { ApiError, fetchRules } from './api.ts';
import { h } from './dom.ts';
import { renderMarkdown } from './markdown.ts';
import type { VariantInfo } from './types.ts';

/** The document without its leading title: the panel's own heading names the game. */
export function withoutTitle(markdown: string): string {
  return markdown.replace(/^\s*# [^\n]*\n/, '');
}

/**
 * A `<details>` element with the rules of `variant`. Keep the element and
 * put it back on each redraw: it keeps its open state, its scroll position
 * and the fetched document.
 */
export function rulesDetails(
  variant: VariantInfo,
  options: { summary: boolean; label?: string } = { summary: true },
): HTMLDetailsElement {
  const doc = h('div.rules-doc.markdown', { 'data-variant': variant.name });
  let state: 'none' | 'loading' | 'done' = 'none';
  const load = async () => {
    state = 'loading';
    doc.replaceChildren(h('p.loading', {}, 'Loading the rules…'));
    try {
      // Safe: renderMarkdown escapes every character of the document.
      doc.innerHTML = renderMarkdown(withoutTitle(await fetchRules(variant.name)));
      state = 'done';
    } catch (e) {
      state = 'none'; // try again on the next opening
      const message =
        e instanceof ApiError && e.status === 404 ? 'This game has no rules document yet.' : `Cannot load the rules: ${(e as Error).message}`;
      doc.replaceChildren(h('p.note', {}, message));
    }
  };
  const details = h(
    'details.rules',
    {
      ontoggle: () => {
        if (details.open && state === 'none') void load();
      },
    },
    h('summary', {}, options.label ?? `Rules of ${variant.title}`),
    options.summary ? h('p', {}, variant.summary) : null,
    options.summary && variant.experimental ? h('p.note', {}, 'The rule book marks this game experimental.') : null,
    options.summary && variant.hidden_information ? h('p.note', {}, 'Players hold secrets: each sees only their own.') : null,
    doc,
  );
  return details;
}
