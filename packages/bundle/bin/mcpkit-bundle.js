#!/usr/bin/env node
// A committed launcher rather than a bin inside dist/: npm links bins at install time, before
// anything is built, and a compiled file would not carry the executable bit.
import '../dist/cli.js';
