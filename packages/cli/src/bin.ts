#!/usr/bin/env node
/** The `sandbank` executable: from a checkout (`pnpm sandbank`, Node ≥ 22.18 runs it as is) or bundled into dist/ for the tarball. */
import { run } from './main.ts';

process.exitCode = await run(process.argv);
