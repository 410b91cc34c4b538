// One operator replica for bench/sharding/run.mjs: reconciles Widgets by writing
// status.reconciledBy = RUN/<shard>, unsharded (no flags) or sharded (--shard-ring,
// --shard-id). Every second it prints one JSON line: its heap after a full GC, and how many
// Widgets its cache holds. Run with --expose-gc.
import { controller, createManager, managerOptionsFromArgs } from '../../runtime/dist/index.js';
import { defineKind } from '../../runtime/dist/api/index.js';

const Widget = defineKind({ group: 'test.opgen.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
const options = managerOptionsFromArgs(process.argv.slice(2));
const mark = `${process.env.RUN}/${options.shardId ?? 'single'}`;
const mgr = createManager({ ...options, logLevel: 'warn' });
controller(mgr, { maxConcurrentReconciles: 4 })
  .for(Widget)
  .reconcile(async (widget, ctx) => {
    if (widget.status?.reconciledBy !== mark) await ctx.client.patchStatus(Widget, widget, { status: { reconciledBy: mark } });
  });
setInterval(() => {
  globalThis.gc?.();
  const cached = mgr.cache.has(Widget) ? mgr.cache.informerFor(Widget).list().length : 0;
  console.log(JSON.stringify({ heapUsed: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss, cached }));
}, 1000).unref();
await mgr.start();
