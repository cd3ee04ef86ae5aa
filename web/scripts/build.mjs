// Bundles the client into web/dist: index.html, assets/app.js, assets/app.css, assets/favicon.svg,
// and chessground's stylesheets (board, brown theme, cburnett pieces).
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist');
const assets = join(dist, 'assets');
const chessground = join(web, 'node_modules', '@lichess-org', 'chessground', 'assets');

await rm(dist, { recursive: true, force: true });
await mkdir(assets, { recursive: true });
await build({
  entryPoints: [join(web, 'src', 'main.ts')],
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  sourcemap: true,
  outfile: join(assets, 'app.js'),
  logLevel: 'warning',
});
await copyFile(join(web, 'src', 'index.html'), join(dist, 'index.html'));
await copyFile(join(web, 'src', 'app.css'), join(assets, 'app.css'));
await copyFile(join(web, 'src', 'board.css'), join(assets, 'board.css'));
await copyFile(join(web, 'src', 'favicon.svg'), join(assets, 'favicon.svg'));
for (const css of ['chessground.base.css', 'chessground.brown.css', 'chessground.cburnett.css']) {
  await copyFile(join(chessground, css), join(assets, css));
}
console.log(`built ${dist}`);
