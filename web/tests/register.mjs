// `node --import ./tests/register.mjs`: lets node run the TypeScript tests
// (and the client's pure modules they import) by stripping types with esbuild.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
