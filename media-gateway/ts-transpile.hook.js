// Loads the media gateway's TypeScript sources in a media worker thread when it runs from source
// (npm run test:media, bench:media, jest): TypeScript's own transpiler, pure JavaScript. swc's hook
// (@swc-node/register) loads a native addon, and Node crashes the whole process (SIGSEGV) when a
// worker that loaded one is terminated or dies, which is the case a media worker must survive.
// Production runs the compiled dist/ and never loads this.
const { readFileSync } = require('node:fs');
const ts = require('typescript');

const options = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  sourceMap: false,
  inlineSourceMap: true,
};

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
    compilerOptions: options,
    fileName: filename,
  });
  module._compile(outputText, filename);
};
