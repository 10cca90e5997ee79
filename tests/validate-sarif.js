#!/usr/bin/env node
// Validate SARIF files against the official 2.1.0 schema (the copy shipped
// in @microsoft/sarif-multitool-linux) with ajv; exit 0 valid, 1 invalid,
// 2 unreadable.  Usage: node validate-sarif.js FILE...
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020');
const addFormats = require('ajv-formats');

const schemaPath = require.resolve('@microsoft/sarif-multitool-linux/sarif-2.1.0.json');
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));

let rc = 0;
for (const file of process.argv.slice(2)) {
  let data;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    console.log(`${file}: unreadable: ${e.message}`);
    rc = 2;
    continue;
  }
  if (validate(data))
    continue;
  rc = Math.max(rc, 1);
  for (const e of validate.errors)
    console.log(`${file}: ${e.instancePath || '/'} ${e.message}`);
}
process.exit(rc);
