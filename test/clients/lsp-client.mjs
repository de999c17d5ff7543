// lsp-client.mjs - drives `plate lsp` with the VS Code language-server
// protocol library (vscode-languageserver-protocol, pinned in
// package-lock.json): a client no one here wrote. Prints what comes back,
// one fact a line, for FileCheck (test/lit/lsp/*.test).
//
//   node lsp-client.mjs PLATE SCRIPT.plate [--measure N]
//
// SCRIPT is opened, edited incrementally (a typo, its quick fix, UTF-16
// positions past a character outside the BMP), and every feature is asked
// about. --measure N times N edit -> publishDiagnostics round trips and
// prints the median and the 95th percentile (figures for docs/lsp.md, never
// checked by a test).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

let protocol;
try {
  protocol = (await import('vscode-languageserver-protocol/node.js')).default;
} catch (error) {
  console.error(`lsp-client: cannot load vscode-languageserver-protocol (${error.message}); ` +
                'test/clients/node_modules is missing: run tools/setup.sh');
  process.exit(2);
}
const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter,
  InitializeRequest, InitializedNotification, ShutdownRequest, ExitNotification,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification,
  PublishDiagnosticsNotification, HoverRequest, DefinitionRequest, ReferencesRequest,
  CompletionRequest, DocumentSymbolRequest, CodeActionRequest, ResponseError,
} = protocol;

const [plate, scriptPath, ...rest] = process.argv.slice(2);
if (!plate || !scriptPath) {
  console.error('usage: node lsp-client.mjs PLATE SCRIPT.plate [--measure N]');
  process.exit(2);
}
const measure = rest[0] === '--measure' ? Number(rest[1]) : 0;

// A safety net only: every step below waits for a message, never for time.
const watchdog = setTimeout(() => {
  console.error('lsp-client: no answer within 60 s');
  process.exit(3);
}, 60000);

const server = spawn(plate, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
const exited = new Promise((done) => server.on('exit', (code, signal) => done({ code, signal })));
const connection = createProtocolConnection(new StreamMessageReader(server.stdout),
                                            new StreamMessageWriter(server.stdin));

// publishDiagnostics by version: a waiter per version still to come.
const published = new Map();
const waiters = new Map();
connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
  published.set(params.version, params);
  const waiter = waiters.get(params.version);
  if (waiter) {
    waiters.delete(params.version);
    waiter(params);
  }
});
function diagnosticsFor(version) {
  if (published.has(version))
    return Promise.resolve(published.get(version));
  return new Promise((done) => waiters.set(version, done));
}
connection.listen();

const text = readFileSync(scriptPath, 'utf8');
const lines = text.split('\n');
const uri = pathToFileURL(resolve(scriptPath)).href;
const doc = { textDocument: { uri } };
let version = 1;

// Positions by content, never by hand-counted numbers: the first line
// holding `needle` (after `after`, when given) and the UTF-16 column of
// `needle` in it (JavaScript strings count UTF-16 units, as LSP does).
function find(needle, after) {
  for (let line = 0; line < lines.length; ++line) {
    if (after && !lines[line].includes(after))
      continue;
    const character = lines[line].indexOf(needle);
    if (character >= 0)
      return { line, character };
  }
  throw new Error(`lsp-client: \`${needle}\` is not in ${scriptPath}`);
}
function where(range) {
  return `${range.start.line + 1}:${range.start.character}-${range.end.line + 1}:${range.end.character}`;
}
function printDiagnostics(label, params) {
  console.log(`${label}: version ${params.version}: ${params.diagnostics.length} diagnostic(s)`);
  for (const d of params.diagnostics) {
    console.log(`  ${d.code} severity=${d.severity} ${where(d.range)} ${d.message}`);
    for (const related of d.relatedInformation ?? [])
      console.log(`    related ${related.location.uri === uri ? 'same-file' : related.location.uri} ` +
                  `${where(related.location.range)} ${related.message}`);
  }
}
// The client's own copy of the text, edited exactly as it tells the server.
function edit(range, newText) {
  const before = lines.slice(0, range.start.line);
  const head = lines[range.start.line].slice(0, range.start.character);
  const tail = lines[range.end.line].slice(range.end.character);
  const middle = (head + newText + tail).split('\n');
  lines.splice(0, range.end.line + 1, ...before, ...middle);
  return { range, text: newText };
}
async function change(...changes) {
  version += 1;
  await connection.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version }, contentChanges: changes });
  return diagnosticsFor(version);
}
function hoverText(hover) {
  return hover === null ? 'null' : hover.contents.value.replace(/\n+/g, ' | ');
}

const init = await connection.sendRequest(InitializeRequest.type, {
  processId: process.pid, rootUri: null, capabilities: {},
  clientInfo: { name: 'lsp-client.mjs', version: '1' } });
const caps = init.capabilities;
console.log(`server: ${init.serverInfo.name}`);
console.log(`capabilities: sync=${caps.textDocumentSync.change} hover=${caps.hoverProvider} ` +
            `definition=${caps.definitionProvider} references=${caps.referencesProvider} ` +
            `completion=${!!caps.completionProvider} symbols=${caps.documentSymbolProvider} ` +
            `codeAction=${caps.codeActionProvider.codeActionKinds.join(',')} ` +
            `encoding=${caps.positionEncoding}`);
await connection.sendNotification(InitializedNotification.type, {});

await connection.sendNotification(DidOpenTextDocumentNotification.type, {
  textDocument: { uri, languageId: 'plate', version, text } });
printDiagnostics('open', await diagnosticsFor(version));

if (measure > 0) {
  // Round trips of a one-character edit and its undo: the server compiles
  // the whole script each time (there is nothing incremental to reuse).
  const at = find('detection_ab to all');
  const spot = { line: at.line, character: at.character + 'detection_ab'.length };
  const times = [];
  for (let i = 0; i < measure; ++i) {
    const start = process.hrtime.bigint();
    await change(edit({ start: spot, end: spot }, 'x'));
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    const end = { line: spot.line, character: spot.character + 1 };
    const undoStart = process.hrtime.bigint();
    await change(edit({ start: spot, end }, ''));
    times.push(Number(process.hrtime.bigint() - undoStart) / 1e6);
  }
  times.sort((a, b) => a - b);
  const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(`latency: ${times.length} edits: median ${pick(0.5)} ms, p95 ${pick(0.95)} ms`);
}

// 1. A typo, typed one character at a time as an editor sends it.
const typo = find('detection_ab to all');
const typoEnd = { line: typo.line, character: typo.character + 'detection_ab'.length };
printDiagnostics('typo', await change(edit({ start: typoEnd, end: typoEnd }, 'x')));

// 2. Its quick fix, applied as the editor would: the edit it proposes.
const actions = await connection.sendRequest(CodeActionRequest.type, {
  ...doc, range: { start: typo, end: typo }, context: { diagnostics: [] } });
for (const action of actions) {
  const edits = action.edit.changes[uri];
  console.log(`code action: ${action.kind} "${action.title}" ` +
              edits.map((e) => `${where(e.range)} -> ${e.newText}`).join('; '));
}
const fix = actions[0].edit.changes[uri][0];
printDiagnostics('fixed', await change(edit(fix.range, fix.newText)));

// 3. Two changes in one notification, the second after a character that
// takes two UTF-16 units (four UTF-8 bytes): a server that counted bytes
// or code points would cut the character in half (E111) or miss the word.
const comment = { line: lines.length - 1, character: 0 };
const tail = edit({ start: comment, end: comment }, '# \u{1F9EA} tube note\n');
const word = { line: comment.line, character: '# \u{1F9EA} '.length };
const second = edit({ start: word, end: { line: word.line, character: word.character + 4 } }, 'vial');
printDiagnostics('utf16', await change(tail, second));
console.log(`client text: ${lines[comment.line]}`);

// 4. Hover: a name, a quantity, an INSTRUMENT step.
const reagent = find('detection_ab', '3.');
console.log(`hover name: ${hoverText(await connection.sendRequest(HoverRequest.type, {
  ...doc, position: { line: reagent.line, character: reagent.character + 2 } }))}`);
const layoutName = find('S1..S7');
console.log(`hover layout: ${hoverText(await connection.sendRequest(HoverRequest.type, {
  ...doc, position: layoutName }))}`);
const hours = find('2 h');
console.log(`hover quantity: ${hoverText(await connection.sendRequest(HoverRequest.type, {
  ...doc, position: hours }))}`);
const step = find('dispense', 'detection_ab to all');
console.log(`hover step: ${hoverText(await connection.sendRequest(HoverRequest.type, {
  ...doc, position: step }))}`);

// 5. Definition and references of a reagent used in three steps.
const use = find('wash_buffer', '5.');
for (const location of await connection.sendRequest(DefinitionRequest.type, { ...doc, position: use }))
  console.log(`definition: ${location.uri === uri ? 'same-file' : location.uri} ${where(location.range)}`);
const references = await connection.sendRequest(ReferencesRequest.type, {
  ...doc, position: use, context: { includeDeclaration: true } });
console.log(`references: ${references.map((r) => where(r.range)).join(' ')}`);

// 6. Completion: a statement keyword at a step's start, a unit after a
// number, a declared name after `of`.
const stepStart = find('dispense', '6.');
const keywords = await connection.sendRequest(CompletionRequest.type, { ...doc, position: stepStart });
console.log(`completion statement: ${keywords.items.map((i) => i.label).slice(0, 6).join(' ')}`);
const unitAt = find('uL of hrp');
const units = await connection.sendRequest(CompletionRequest.type, { ...doc, position: unitAt });
console.log(`completion unit: has uL=${units.items.some((i) => i.label === 'uL')} ` +
            `has min=${units.items.some((i) => i.label === 'min')}`);
const nameAt = find('hrp_conjugate', '6.');
const names = await connection.sendRequest(CompletionRequest.type, { ...doc, position: nameAt });
console.log(`completion name: ${names.items.map((i) => i.label).filter((l) => !/^[A-Z]\d+$/.test(l)).join(' ')}`);

// 7. Symbols: the outline.
const symbols = await connection.sendRequest(DocumentSymbolRequest.type, doc);
for (const symbol of symbols)
  console.log(`symbol: ${symbol.name} (${(symbol.children ?? []).length}) ` +
              `${(symbol.children ?? []).slice(0, 2).map((c) => c.name).join(' / ')}`);

// 8. Errors the library reports as errors: an unknown method and a
// document that was never opened; the server keeps serving after both.
try {
  await connection.sendRequest('plate/nonsense', {});
} catch (error) {
  console.log(`unknown method: ${error instanceof ResponseError ? error.code : error}`);
}
try {
  await connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: 'file:///nowhere.plate' }, position: { line: 0, character: 0 } });
} catch (error) {
  console.log(`unopened document: ${error instanceof ResponseError ? error.code : error}`);
}
console.log(`still serving: ${hoverText(await connection.sendRequest(HoverRequest.type, {
  ...doc, position: hours })).slice(0, 20)}`);

await connection.sendRequest(ShutdownRequest.type);
await connection.sendNotification(ExitNotification.type);
const { code, signal } = await exited;
console.log(`exit: code=${code} signal=${signal}`);
clearTimeout(watchdog);
connection.dispose();
