import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/*
 * The console is built into dist/console (served at /console by src/console/). Everything is
 * bundled and content-hashed under assets/; nothing is inlined, so the page runs under a CSP
 * without 'unsafe-inline'. modulePreload's polyfill would be an inline-free helper in the bundle,
 * but every browser the console supports preloads modules itself.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
});
