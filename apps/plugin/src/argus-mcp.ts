#!/usr/bin/env node
import { runMcpServer } from './server.js';

void runMcpServer(process.argv.slice(2));
