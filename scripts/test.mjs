#!/usr/bin/env node
// The README's test command: build (the e2e tests drive the built CLI and the packed tarball), then
// every test project. Exit status is vitest's.
import { spawnSync } from 'node:child_process';

const run = (cmd, args) =>
  spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;

const built = run('npm', ['run', '--silent', 'build']);
if (built !== 0) process.exit(built);
process.exit(run('npx', ['vitest', 'run', ...process.argv.slice(2)]));
