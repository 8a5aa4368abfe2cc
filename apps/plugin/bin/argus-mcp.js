#!/usr/bin/env node
// A committed launcher for the built server: pnpm links package bins at install time, before any
// build, so a bin pointing into dist/ made every install warn "Failed to create bin … argus-mcp".
import '../dist/daemon/argus-mcp.js';
