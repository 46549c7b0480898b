// Summarises a .cpuprofile: the functions and packages that took the most CPU time.
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const self = new Map(); const byId = new Map(p.nodes.map(n => [n.id, n]));
const dt = p.timeDeltas; const total = dt.reduce((a, b) => a + b, 0);
const counts = new Map();
p.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
for (const [id, t] of counts) { const n = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + t); }
// inclusive by file
const fileT = new Map();
for (const [id, t] of counts) { const n = byId.get(id); const f = n.callFrame.url.replace(/.*node_modules\//, 'nm/').split('/').slice(0, 2).join('/') || n.callFrame.functionName; fileT.set(f, (fileT.get(f) ?? 0) + t); }
console.log('total ms', Math.round(total / 1000));
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, t]) => `${(100 * t / total).toFixed(1)}% ${k}`).join('\n'));
console.log('--- by package');
console.log([...fileT].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, t]) => `${(100 * t / total).toFixed(1)}% ${k}`).join('\n'));
