// The script of an installed package's command, run with this Node (24, the `node` package)
// rather than whatever `node` a shebang would find on the PATH.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export function packageBin(pkg: string, command: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[command];
  if (!bin) throw new Error(`${pkg} has no command ${command}`);
  return join(dirname(manifestPath), bin);
}
