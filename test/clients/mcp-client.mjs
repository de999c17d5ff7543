// mcp-client.mjs - drives `plate mcp` with the official MCP TypeScript SDK
// client (@modelcontextprotocol/sdk, pinned in package-lock.json), the way
// Claude Desktop or the MCP inspector would: Client + StdioClientTransport
// spawning the server. The SDK checks every answer against the protocol's
// schemas and every structuredContent against the tool's outputSchema, so
// a malformed answer fails the call here. Prints one line per fact for
// FileCheck (test/lit/mcp/).
//
// Usage: node mcp-client.mjs SCENARIO --plate PATH [--stdlib DIR] [--dir DIR]
//   SCENARIO  tour       list tools and resources, call each tool on the
//                        examples (docs/examples + protocol texts in DIR)
//             bad        bad arguments, unknown tool and resource, scripts
//                        with errors; the server must keep serving
//             translate  call `translate` on DIR/bradford.txt (the models
//                        come from the environment)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
let Client, StdioClientTransport, SDK_VERSION;
try {
  ({ Client } = await import('@modelcontextprotocol/sdk/client/index.js'));
  ({ StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js'));
  SDK_VERSION = JSON.parse(fs.readFileSync(
      path.join(here, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')).version;
} catch (error) {
  console.error(`mcp-client: error: the MCP SDK is not installed in ${here}/node_modules ` +
                `(${error.message}); run tools/setup.sh`);
  process.exit(1);
}

const args = process.argv.slice(2);
const scenario = args[0];
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const plate = option('--plate');
const stdlib = option('--stdlib');
const dir = option('--dir', '.');
// `translate --platform ot2`: the same call for the Opentrons OT-2.
const platform = option('--platform');
if (!plate || !['tour', 'bad', 'translate', 'ot2'].includes(scenario)) {
  console.error('usage: node mcp-client.mjs tour|bad|translate|ot2 --plate PATH [--stdlib DIR] [--dir DIR] [--platform NAME]');
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: plate,
  args: ['mcp', ...(stdlib ? ['--stdlib', stdlib] : [])],
  env: { ...process.env },
  stderr: 'inherit',
});
const client = new Client({ name: 'plate-lit-client', version: '1.0.0' });
// A safety net only: a hung server fails the test instead of stalling it.
const watchdog = setTimeout(() => {
  console.log('FAIL: timed out');
  process.exit(3);
}, 120000);
// The client hands the negotiated revision to transports that want it
// (HTTP ones); stdio has no use for it, so catch it here.
let negotiated = '?';
transport.setProtocolVersion = (version) => { negotiated = version; };
await client.connect(transport);
const info = client.getServerVersion();
console.log(`sdk ${SDK_VERSION} connected to ${info.name} ${info.version}, protocol ${negotiated}, ` +
            `instructions ${client.getInstructions() ? 'given' : 'none'}`);

const read = (file) => fs.readFileSync(path.join(dir, file), 'utf8');
const structured = (result) => result.structuredContent ?? {};
const codes = (result) =>
  (structured(result).diagnostics ?? []).map((d) => `${d.code}@${d.line}:${d.column}`).join(',');

// The last text block must be structuredContent serialized (the spec's
// SHOULD for clients that read only text).
function mirrors(result) {
  const blocks = result.content.filter((c) => c.type === 'text');
  if (!result.structuredContent)
    return 'no structured content';
  try {
    const parsed = JSON.parse(blocks[blocks.length - 1].text);
    return JSON.stringify(parsed) === JSON.stringify(result.structuredContent)
               ? 'text mirrors structuredContent' : 'FAIL: text block differs';
  } catch {
    return 'FAIL: last text block is not JSON';
  }
}

async function call(label, name, argumentsObject, options = undefined) {
  try {
    const result = await client.callTool({ name, arguments: argumentsObject }, undefined, options);
    const s = structured(result);
    console.log(`${label}: isError=${result.isError === true} ok=${s.ok} errors=${s.errors} ` +
                `warnings=${s.warnings} codes=[${codes(result)}] ${mirrors(result)}`);
    return result;
  } catch (error) {
    console.log(`${label}: rpc error ${error.code}: ${error.message}`);
    return undefined;
  }
}

function firstText(result) {
  return result?.content?.find((c) => c.type === 'text')?.text ?? '';
}

if (scenario === 'ot2') {
  // `check` and `compile` for the Opentrons OT-2, as `plate compile
  // --platform ot2 [--manual-fallback]`.
  const file = path.join(dir, 'bradford.plate');
  await call('check ot2', 'check', { path: file, platform: 'ot2' });
  await call('check ot2 fallback', 'check', { path: file, platform: 'ot2', manual_fallback: true });
  const compiled = await call('compile ot2', 'compile',
                              { path: file, platform: 'ot2', manual_fallback: true, ir: false });
  const protocol = structured(compiled).protocol ?? '';
  console.log(`compile ot2: protocol lines=${protocol.split('\n').length} ` +
              `requirements=${protocol.includes('"robotType": "OT-2"')} ` +
              `partial=${protocol.includes('PARTIAL_COLUMN')} ir=${structured(compiled).ir !== undefined} ` +
              `commands=${structured(compiled).commands !== undefined}`);
  console.log(`compile ot2: first call ${protocol.split('\n').find((l) => l.includes('.pick_up_tip('))?.trim()}`);
  for (const uri of ['plate://reference/language', 'plate://reference/language/ot2']) {
    const { contents } = await client.readResource({ uri });
    console.log(`resource ${uri}: ${contents[0].text.split('\n').find((l) => l.startsWith('Platform')) ?? 'FAIL: no platform line'}`);
  }
  // A read by hand is right for an OT-2 (it has no reader).
  for (const platformName of ['bioforge1', 'ot2']) {
    const aligned = await call(`align ${platformName}`, 'align',
                               { path: path.join(dir, 'bradford-manual-read.plate'),
                                 protocol_path: path.join(dir, 'bradford.txt'), platform: platformName });
    console.log(`align ${platformName}: certain=${structured(aligned).certain}`);
  }
  for (const [label, name, extra] of [['check flex', 'check', { platform: 'flex' }],
                                      ['check bf1 fallback', 'check', { manual_fallback: true }],
                                      ['compile ot2 commands', 'compile', { platform: 'ot2', commands: true }]]) {
    const result = await call(label, name, { path: file, ...extra });
    console.log(`${label}: ${firstText(result)}`);
  }
  await client.close();
  console.log('closed');
  clearTimeout(watchdog);
  process.exit(0);
}

if (scenario === 'tour') {
  const { tools } = await client.listTools();
  console.log(`tools: ${tools.map((t) => t.name).join(' ')}`);
  for (const tool of tools)
    console.log(`tool ${tool.name}: title "${tool.title}" input ` +
                `[${Object.keys(tool.inputSchema.properties ?? {}).join(',')}] output ` +
                `[${Object.keys(tool.outputSchema?.properties ?? {}).join(',')}] ` +
                `readOnly=${tool.annotations?.readOnlyHint}`);
  const { resources } = await client.listResources();
  for (const resource of resources) {
    const { contents } = await client.readResource({ uri: resource.uri });
    const text = contents[0].text;
    console.log(`resource ${resource.uri} ${resource.mimeType} ${text.length > 200 ? 'long' : 'SHORT'}: ` +
                `${text.split('\n')[0]}`);
  }

  for (const example of ['bradford', 'il6_elisa']) {
    const file = path.join(dir, `${example}.plate`);
    await call(`check ${example} (path)`, 'check', { path: file });
    const source = fs.readFileSync(file, 'utf8');
    await call(`check ${example} (source)`, 'check', { source, name: `${example}.plate` });

    const compiled = await call(`compile ${example}`, 'compile', { source, name: `${example}.plate` });
    const c = structured(compiled);
    console.log(`compile ${example}: summary commands=${c.summary.commands} tips=${c.summary.tips} ` +
                `robot_time=${c.summary.robot_time} reservoir=` +
                `${c.loading_plan.reservoir.map((r) => r.liquid).join(',')} ir=` +
                `${c.ir.startsWith('module') || c.ir.length > 0 ? 'yes' : 'no'} commands_listed=` +
                `${c.commands !== undefined}`);
    console.log(`compile ${example}: steps ${c.steps.split('\n')[0]}`);

    const ran = await call(`run ${example}`, 'run', { path: file });
    const r = structured(ran);
    console.log(`run ${example}: executed=${r.executed}/${r.commands} robot_time=${r.robot_time} ` +
                `reads=${r.reads.length} wells_read=${Object.keys(r.reads[0]?.values ?? {}).length} ` +
                `analyses=${r.analyses.length} outputs=${r.outputs.length}`);
    for (const analysis of r.analyses)
      console.log(`run ${example}: analysis ${analysis.kind} ${analysis.fit?.model} ` +
                  `r2>0.98=${analysis.fit?.r_squared > 0.98} samples=${analysis.samples.length} ` +
                  `unit=${analysis.unit}`);
    console.log(`run ${example}: note ${r.notes[0]}`);
  }
  // The seed reaches the simulator: two seeds, two sets of reads.
  const bradford = path.join(dir, 'bradford.plate');
  const a = structured(await client.callTool({ name: 'run', arguments: { path: bradford, seed: 1 } }));
  const b = structured(await client.callTool({ name: 'run', arguments: { path: bradford, seed: 2 } }));
  console.log(`run seeds: ${JSON.stringify(a.reads[0].values) === JSON.stringify(b.reads[0].values)
                                ? 'same reads' : 'different reads'}`);
  const written = structured(await client.callTool(
      { name: 'run', arguments: { path: bradford, out_dir: path.join(dir, 'out') } }));
  console.log(`run with out_dir: ${written.outputs.map((o) => path.basename(o)).join(' ')}`);
  const listed = await call('compile with commands', 'compile',
                            { path: bradford, ir: false, commands: true });
  const l = structured(listed);
  console.log(`compile with commands: ir=${l.ir !== undefined} commands=${l.commands.length} ` +
              `first=${l.commands[0].module}.${l.commands[0].op}`);

  for (const [example, text] of [['bradford', 'bradford.txt'], ['il6_elisa', 'il6_elisa.txt']]) {
    const aligned = await call(`align ${example}`, 'align',
                               { protocol_path: path.join(dir, text), path: path.join(dir, `${example}.plate`) });
    const s = structured(aligned);
    console.log(`align ${example}: certain=${s.certain} uncertain=${s.uncertain} text_steps=` +
                `${s.alignment.text_steps.length} script_steps=${s.alignment.script_steps.length}`);
  }
  const inline = await call('align (text)', 'align',
                            { protocol_text: read('bradford.txt'), source: read('bradford.plate') });
  console.log(`align (text): protocol=${structured(inline).alignment.protocol} script=` +
              `${structured(inline).alignment.script}`);
}

if (scenario === 'bad') {
  const broken = 'this is not a script\n';
  const result = await call('check broken source', 'check', { source: broken, name: 'broken.plate' });
  console.log(`check broken source: text ${firstText(result).split('\n')[0]}`);
  await call('check missing file', 'check', { path: path.join(dir, 'no-such-file.plate') });
  // Files that would never end or mean nothing are refused before reading.
  for (const [label, name, argumentsObject] of [
    ['check /dev/zero', 'check', { path: '/dev/zero' }],
    ['check a directory', 'check', { path: dir }],
    ['run with /dev/zero as truth', 'run', { path: path.join(dir, 'bradford.plate'), truth: '/dev/zero' }],
  ]) {
    const r = await call(label, name, argumentsObject);
    console.log(`${label}: ${firstText(r).replace(dir, 'DIR')}`);
  }
  await call('compile broken source', 'compile', { source: broken });
  await call('run broken source', 'run', { source: broken });
  // 400 uL does not fit a well: a physical error, found before anything runs.
  const overfull = read('bradford.plate').replace('200 uL of bradford', '400 uL of bradford');
  const r = await call('run overfull', 'run', { source: overfull, name: 'overfull.plate' });
  console.log(`run overfull: text ${firstText(r).split('\n')[0]}`);

  // Arguments that do not fit the input schema: under 2025-11-25 a tool
  // result with isError (SEP-1303) that names the argument.
  for (const [label, name, argumentsObject] of [
    ['no script', 'check', {}],
    ['both path and source', 'check', { path: 'a.plate', source: 'x' }],
    ['path a number', 'check', { path: 5 }],
    ['unknown argument', 'compile', { source: 'x', optimise: true }],
    ['seed negative', 'run', { source: 'x', seed: -1 }],
    ['seed a string', 'run', { source: 'x', seed: 'one' }],
    ['align without protocol', 'align', { source: 'x' }],
    ['max_attempts 0', 'translate', { protocol_text: 'x', max_attempts: 0 }],
    ['platform unknown', 'translate', { protocol_text: 'x', platform: 'nosuch' }],
  ]) {
    const r = await call(`bad arguments, ${label}`, name, argumentsObject);
    console.log(`bad arguments, ${label}: ${firstText(r)}`);
  }
  await call('unknown tool', 'optimise', {});
  try {
    await client.readResource({ uri: 'plate://platforms/nope' });
    console.log('unknown resource: FAIL: read');
  } catch (error) {
    console.log(`unknown resource: rpc error ${error.code}: ${error.message}`);
  }
  await client.ping();
  console.log('ping after the errors: ok');
  await call('check after the errors', 'check', { path: path.join(dir, 'bradford.plate') });
}

if (scenario === 'translate') {
  // Progress notifications keep a client that resets its timeout on them
  // waiting for as long as the models take.
  const progress = [];
  const result = await call('translate', 'translate',
                            { protocol_path: path.join(dir, 'bradford.txt'), max_attempts: 2,
                              ...(platform ? { platform } : {}) },
                            { onprogress: (p) => progress.push(`${p.progress} ${p.message}`),
                              resetTimeoutOnProgress: true });
  // Only the first two: the SDK hands notifications to their handlers a
  // microtask late, so one that arrives in the same read as the result
  // finds its handler gone (the server sent it first all the same).
  for (const line of progress.slice(0, 2))
    console.log(`translate: progress ${line.replace(/127\.0\.0\.1:\d+/g, 'STUB')}`);
  const s = structured(result);
  if (result?.structuredContent)
    console.log(`translate: passed=${s.passed} outcome=${s.outcome} attempts=${s.attempts} ` +
                `parser=${s.parser} validator=${s.validator} script_starts=` +
                `${JSON.stringify((s.script ?? '').split('\n')[0])}`);
  else
    console.log(`translate: text ${firstText(result)}`);
}

clearTimeout(watchdog);
await client.close();
console.log('closed');
