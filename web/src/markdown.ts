// A small, safe markdown renderer for the games' rules documents
// (docs/games/*.md): headings, paragraphs, lists (nested by indentation),
// code spans and code blocks (fenced or indented), bold and italic, links
// with safe targets, block quotes, rules and pipe tables.
//
// Safe by construction: every character of the source reaches the output
// escaped, so the only tags in it are the ones made here, and a link's
// target is kept only if it is http(s), mailto, a fragment or a relative
// path (never `javascript:`). No raw HTML is passed through.

/** Text made safe for HTML, between tags and inside a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, c => ESCAPES[c]);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

type Align = 'left' | 'right' | 'center' | null;

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'list'; ordered: boolean; start: number; loose: boolean; items: Block[][] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'table'; align: Align[]; head: string[]; rows: string[][] }
  | { kind: 'rule' };

/** The markdown `source` as HTML. */
export function renderMarkdown(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  return renderBlocks(parseBlocks(lines), false);
}

// ------------------------------------------------------------------ blocks

const isBlank = (line: string) => line.trim() === '';
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ ]+(.*?))?(?:[ ]+#+)?[ ]*$/;
const RULE = /^ {0,3}([-*_])(?:[ ]*\1){2,}[ ]*$/;
const QUOTE = /^ {0,3}>/;
const DELIMITER_ROW = /^[ ]*\|?[ ]*:?-+:?[ ]*(\|[ ]*:?-+:?[ ]*)*\|?[ ]*$/;

interface Marker {
  ordered: boolean;
  start: number;
  /** Spaces before the marker. */
  indent: number;
  /** The column where the item's text starts. */
  content: number;
}

function listMarker(line: string): Marker | null {
  const m = /^( {0,3})([-*+]|(\d{1,9})[.)])( +|$)/.exec(line);
  if (!m) return null;
  const spaces = m[4].length;
  // Five or more spaces after the marker: the text is an indented block, one space in.
  const gap = spaces === 0 || spaces > 4 ? 1 : spaces;
  return { ordered: m[3] !== undefined, start: m[3] ? Number(m[3]) : 1, indent: m[1].length, content: m[1].length + m[2].length + gap };
}

const isTableStart = (line: string, next: string | undefined) =>
  line.includes('|') && next !== undefined && next.includes('|') && DELIMITER_ROW.test(next);

/** Whether `line` starts a block that interrupts a paragraph. */
function interrupts(line: string, next: string | undefined): boolean {
  if (FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || isTableStart(line, next)) return true;
  const marker = listMarker(line);
  // As in CommonMark, an ordered list interrupts a paragraph only from 1, and no empty item does.
  return !!marker && !isBlank(line.slice(marker.content)) && (!marker.ordered || marker.start === 1);
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence[1][0] === '`' ? '`' : '~'}{${fence[1].length},}[ ]*$`);
      const body: string[] = [];
      for (i++; i < lines.length && !close.test(lines[i]); i++) body.push(lines[i]);
      i++; // the closing fence, or the end of the document
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    if (line.startsWith('    ')) {
      const body: string[] = [];
      for (; i < lines.length && (lines[i].startsWith('    ') || isBlank(lines[i])); i++) body.push(lines[i].slice(4));
      while (body.length && isBlank(body[body.length - 1])) body.pop();
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1].length, text: heading[2] ?? '' });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) inner.push(lines[i].replace(/^ {0,3}> ?/, ''));
      blocks.push({ kind: 'quote', blocks: parseBlocks(inner) });
      continue;
    }
    if (isTableStart(line, lines[i + 1])) {
      const head = splitRow(line);
      const align = splitRow(lines[i + 1]).map(alignment);
      const rows: string[][] = [];
      for (i += 2; i < lines.length && !isBlank(lines[i]) && lines[i].includes('|'); i++) {
        const cells = splitRow(lines[i]);
        rows.push(head.map((_, c) => cells[c] ?? ''));
      }
      blocks.push({ kind: 'table', head, align: head.map((_, c) => align[c] ?? null), rows });
      continue;
    }
    if (listMarker(line)) {
      i = parseList(lines, i, blocks);
      continue;
    }
    const text = [line.trim()];
    for (i++; i < lines.length && !isBlank(lines[i]) && !interrupts(lines[i], lines[i + 1]); i++) text.push(lines[i].trim());
    blocks.push({ kind: 'paragraph', text: text.join('\n') });
  }
  return blocks;
}

/** A list from line `i`: its items are the lines indented under each marker, parsed as blocks. Returns the next line. */
function parseList(lines: string[], i: number, blocks: Block[]): number {
  const first = listMarker(lines[i])!;
  const items: string[][] = [];
  let content = first.content;
  let loose = false;
  let blank = false;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line)) {
      blank = true;
      items[items.length - 1].push('');
      continue;
    }
    const marker = listMarker(line);
    if (marker && marker.ordered === first.ordered && marker.indent < content) {
      if (blank) loose = true; // a blank line between items
      items.push([line.slice(marker.content)]);
      content = marker.content;
      blank = false;
      continue;
    }
    const indent = line.length - line.trimStart().length;
    if (indent >= content) {
      items[items.length - 1].push(line.slice(content));
    } else if (!blank && !interrupts(line, lines[i + 1]) && !marker) {
      items[items.length - 1].push(line.trim()); // a lazy continuation of the item's paragraph
    } else {
      break;
    }
    blank = false;
  }
  const parsed = items.map(item => {
    while (item.length && isBlank(item[item.length - 1])) item.pop();
    // A blank line between two blocks of one item makes the list loose too.
    if (item.some(isBlank)) loose = true;
    return parseBlocks(item);
  });
  blocks.push({ kind: 'list', ordered: first.ordered, start: first.start, loose, items: parsed });
  return i;
}

/** A table row's cells: split on `|` outside code spans; `\|` is a literal bar. */
function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  let code = false;
  for (let k = 0; k < row.length; k++) {
    const c = row[k];
    if (c === '\\' && row[k + 1] === '|') {
      cell += '|';
      k++;
    } else if (c === '|' && !code) {
      cells.push(cell.trim());
      cell = '';
    } else {
      if (c === '`') code = !code;
      cell += c;
    }
  }
  cells.push(cell.trim());
  return cells;
}

function alignment(cell: string): Align {
  const left = cell.startsWith(':');
  const right = cell.endsWith(':');
  return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
}

function renderBlocks(blocks: Block[], tight: boolean): string {
  return blocks.map(block => renderBlock(block, tight)).join('\n');
}

function renderBlock(block: Block, tight: boolean): string {
  switch (block.kind) {
    case 'heading':
      return `<h${block.level}>${renderInline(block.text)}</h${block.level}>`;
    case 'paragraph':
      // In a tight list an item's text stands without a paragraph around it.
      return tight ? renderInline(block.text) : `<p>${renderInline(block.text)}</p>`;
    case 'code':
      return `<pre><code>${escapeHtml(block.text)}</code></pre>`;
    case 'rule':
      return '<hr>';
    case 'quote':
      return `<blockquote>\n${renderBlocks(block.blocks, false)}\n</blockquote>`;
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      const start = block.ordered && block.start !== 1 ? ` start="${block.start}"` : '';
      const items = block.items.map(item => `<li>${renderBlocks(item, !block.loose)}</li>`).join('\n');
      return `<${tag}${start}>\n${items}\n</${tag}>`;
    }
    case 'table': {
      const style = (c: number) => (block.align[c] ? ` style="text-align: ${block.align[c]}"` : '');
      const row = (cells: string[], tag: 'th' | 'td') =>
        `<tr>${cells.map((cell, c) => `<${tag}${style(c)}>${renderInline(cell)}</${tag}>`).join('')}</tr>`;
      const body = block.rows.length ? `\n<tbody>\n${block.rows.map(r => row(r, 'td')).join('\n')}\n</tbody>` : '';
      return `<table>\n<thead>\n${row(block.head, 'th')}\n</thead>${body}\n</table>`;
    }
  }
}

// ------------------------------------------------------------------ inline

/** A link target the page may follow: http(s), mailto, a fragment, or a path without a scheme. */
export function safeUrl(url: string): boolean {
  return /^(https?:\/\/|mailto:|#|\/|\.\.?\/)/i.test(url) || !/^[^/?#]*:/.test(url);
}

/**
 * One paragraph's text as HTML. Code spans, escaped characters and links
 * are first set aside as finished HTML behind placeholders (NUL, number,
 * NUL: NUL cannot come from the source, it is removed), the rest is
 * escaped, emphasis is marked, and the placeholders are put back.
 */
export function renderInline(text: string): string {
  const held: string[] = [];
  const hold = (html: string) => `\u0000${held.push(html) - 1}\u0000`;
  let s = text.replace(/\u0000/g, '');
  s = s.replace(/(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => {
    let body = code.replace(/\n/g, ' ');
    if (/^ [\s\S]* $/.test(body) && body.trim()) body = body.slice(1, -1);
    return hold(`<code>${escapeHtml(body)}</code>`);
  });
  s = s.replace(/\\([!-/:-@[-`{-~])/g, (_, c: string) => hold(escapeHtml(c)));
  s = s.replace(/<(https?:\/\/[^\s<>]+)>/g, (_, url: string) => hold(link(escapeHtml(url), escapeHtml(url))));
  s = escapeHtml(s);
  s = s.replace(/\[([^\]]*)\]\(\s*([^\s()]+)\s*\)/g, (_, label: string, url: string) =>
    hold(safeUrl(url) ? link(url, emphasis(label)) : emphasis(label)),
  );
  return restore(emphasis(s), held);
}

const link = (href: string, label: string) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${label}</a>`;

/** Bold and italic in escaped text: `***both***`, `**bold**`, `__bold__`, `*italic*`, `_italic_` (not inside words). */
function emphasis(s: string): string {
  return s
    .replace(/\*\*\*(?=\S)([\s\S]*?\S)\*\*\*/g, '<strong><em>$1</em></strong>')
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w])__(?=\S)([\s\S]*?\S)__(?!\w)/g, '$1<strong>$2</strong>')
    .replace(/\*(?=\S)([\s\S]*?\S)\*/g, '<em>$1</em>')
    .replace(/(^|[^\w])_(?=\S)([\s\S]*?\S)_(?!\w)/g, '$1<em>$2</em>');
}

function restore(s: string, held: string[]): string {
  return s.replace(/\u0000(\d+)\u0000/g, (_, n: string) => restore(held[Number(n)], held));
}
