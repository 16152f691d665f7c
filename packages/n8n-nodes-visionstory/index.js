// n8n loads the nodes and credentials listed in package.json's "n8n" section; this file only serves
// tools that expect an entry point in a checkout. The published package has no entry point.
module.exports = {};
