#!/usr/bin/env node
// A committed launcher for the built CLI: pnpm links package bins at install time, before any build,
// so a bin pointing into dist/ made every fresh install warn "Failed to create bin … argus" (for the
// apps/release package that depends on the CLI). Same fix as apps/plugin/bin/argus-mcp.js.
import '../dist/argus.js';
