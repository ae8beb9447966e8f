// The official TypeScript SDK client (what most agent hosts are built on) against the bridge.
// Usage: node ts_client.mjs stdio <command> [args...] | node ts_client.mjs http <url>
// Prints one JSON line with what each call returned; exits 1 when the client throws.
import { createRequire } from 'node:module';

const require = createRequire(process.env.HOSTS_NODE_MODULES + '/');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } =
  require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const [mode, target, ...rest] = process.argv.slice(2);
const transport = mode === 'stdio'
  ? new StdioClientTransport({ command: target, args: rest, env: process.env, stderr: 'ignore' })
  : new StreamableHTTPClientTransport(new URL(target));
const client = new Client({ name: 'ts-sdk-host', version: '1.0.0' });

const text = (r) => (r.content || []).filter((c) => c.type === 'text').map((c) => c.text)
  .join('\n');
const summary = (r) => ({ isError: r.isError === true, text: text(r),
  structured: r.structuredContent ?? null, meta: r._meta ?? null });

// Generous bounds: the machine may be busy; a hang still ends in an error.
const opts = { timeout: 300000 };
const call = async (name, args) =>
  summary(await client.callTool({ name, arguments: args }, undefined, opts));
const out = {};
try {
  await client.connect(transport, opts);
  out.server = client.getServerVersion();
  out.protocol = transport.protocolVersion ?? null;
  const listed = (await client.listTools(undefined, opts)).tools;
  out.tools = listed.map((t) => t.name);
  // a result schema with $defs/$ref: the client compiles it (ajv) and checks the result
  out.contact_schema = listed.find((t) => t.name === 'move_until_contact')?.outputSchema ?? null;
  out.read = await call('get_joint_states', {});
  out.motion = await call('move_arm_to_pose', { position: { x: 0.4, y: 0.1, z: 0.35 } });
  out.above_table = await call('move_arm_to_pose', { position: { x: 0.4, y: -0.2, z: 0.1 } });
  out.contact = await call('move_until_contact', { direction: 'down', max_distance_m: 0.2 });
  out.unit_string = await call('grasp_object_force_control', { force_n: '15N' });
  out.out_of_range = await call('grasp_object_force_control', { force_n: 50 });
  out.unreachable = await call('move_arm_to_pose', { position: { x: 0.8, y: 0.8, z: 0.1 } });
  out.grasp_empty = await call('grasp_object_force_control', { force_n: 10 });
  out.gripper = await call('read_gripper_state', {});
  out.release = await call('release_object', {});
  await client.close();
} catch (err) {
  out.thrown = String(err && err.message ? err.message : err);
  console.log(JSON.stringify(out));
  process.exit(1);
}
console.log(JSON.stringify(out));
