// `npm ci` only when node_modules does not match package-lock.json: Maven runs this at every build (and at every
// `./mvnw spring-boot:run`), and a clean install of an unchanged tree took most of a start's time. The lockfile's
// SHA-256 is kept in node_modules/.cfslab-lock-sha256 after a successful install; any difference, or no
// node_modules, installs again.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const stamp = 'node_modules/.cfslab-lock-sha256';
const want = createHash('sha256').update(readFileSync('package-lock.json')).digest('hex');
const have = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
if (have === want && existsSync('node_modules/.package-lock.json')) {
  console.log('frontend: node_modules matches package-lock.json, npm ci skipped');
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { stdio: 'inherit', shell: process.platform === 'win32' });
if (r.status !== 0) process.exit(r.status ?? 1);
writeFileSync(stamp, want + '\n');
