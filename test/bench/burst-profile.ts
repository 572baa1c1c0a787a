import { readFileSync } from 'node:fs';
import path from 'node:path';

// Reads a V8 CPU profile of the server written during `BURST_PROFILE_DIR=/tmp/p npx tsx test/bench/burst.ts` and
// prints where the burst's CPU time went (the samples between the first send and the last reply's end), grouped by
// function (self time) and by the project function on the stack nearest the top (what of ours asked for the work). Usage: npx tsx test/bench/burst-profile.ts <file.cpuprofile>

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx test/bench/burst-profile.ts <file.cpuprofile>');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const times: number[] = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));

// The burst's window, as the bench wrote it (window-<pid>.json beside the profile: the same monotonic clock).
const pid = /\.(\d+)\.\d+\.\d+\.cpuprofile$/.exec(file)?.[1];
const { fromUs, toUs } = JSON.parse(readFileSync(path.join(path.dirname(file), `window-${pid}.json`), 'utf8')) as { fromUs: number; toUs: number };

const self = new Map<string, number>();
const ours = new Map<string, number>();
let total = 0;
let idle = 0;
for (let i = 0; i < times.length; i++) {
  if (times[i]! < fromUs || times[i]! > toUs) continue;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  total += dt;
  const node = byId.get(profile.samples[i]!)!;
  if (node.callFrame.functionName === '(idle)') {
    idle += dt;
    continue;
  }
  const where = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules\/)?/, '')}:${n.callFrame.lineNumber + 1}`;
  self.set(where(node), (self.get(where(node)) ?? 0) + dt);
  let id: number | undefined = node.id;
  let mine = '(no project frame)';
  while (id !== undefined) {
    const n = byId.get(id)!;
    if (/\/work\/main\/(server|contract)\//.test(n.callFrame.url)) {
      mine = where(n).replace(/ \S*\/work\/main\//, ' ');
      break;
    }
    id = parent.get(id);
  }
  ours.set(mine, (ours.get(mine) ?? 0) + dt);
}

const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
console.log(`burst window ${((toUs - fromUs) / 1e6).toFixed(1)} s: ${ms(total - idle)} busy, ${ms(idle)} idle`);
const top = (m: Map<string, number>, n: number) =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${ms(v)} ${((100 * v) / (total - idle)).toFixed(1).padStart(5)} %  ${k}`);
console.log('\nself time, top 40:');
for (const line of top(self, 40)) console.log(`  ${line}`);
console.log('\nby the nearest project function on the stack, top 40:');
for (const line of top(ours, 40)) console.log(`  ${line}`);

// The longest stretches the loop spent without going idle or back to the event loop (a sample whose stack holds
// no JS frame at all), with the project frames under them: what kept health waiting longest.
const stackOf = (id: number) => {
  const frames: string[] = [];
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
    const f = byId.get(n)!.callFrame;
    if (f.url) frames.push(`${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/work\/main\//, '').replace(/^.*node_modules\//, '')}`);
  }
  return frames;
};
const stretches: Array<{ from: number; us: number; top: Map<string, number> }> = [];
let current: { from: number; us: number; top: Map<string, number> } | undefined;
for (let i = 0; i < times.length; i++) {
  if (times[i]! < fromUs || times[i]! > toUs) continue;
  const node = byId.get(profile.samples[i]!)!;
  const name = node.callFrame.functionName;
  const inLoop = name === '(idle)' || name === '(program)' || name === '(root)';
  if (inLoop) {
    if (current) stretches.push(current);
    current = undefined;
    continue;
  }
  const dt = profile.timeDeltas[i + 1] ?? 0;
  current ??= { from: times[i]!, us: 0, top: new Map() };
  current.us += dt;
  const key = stackOf(node.id).slice(0, 6).join(' < ');
  current.top.set(key, (current.top.get(key) ?? 0) + dt);
}
if (current) stretches.push(current);
console.log('\nlongest stretches without a return to the event loop, top 8:');
for (const s of stretches.sort((a, b) => b.us - a.us).slice(0, 8)) {
  console.log(`  ${ms(s.us)} at +${((s.from - fromUs) / 1000).toFixed(0)} ms:`);
  for (const line of top(s.top, 5)) console.log(`      ${line}`);
}
