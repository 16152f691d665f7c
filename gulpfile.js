const { src, dest, parallel } = require('gulp');

// tsc only emits JavaScript; n8n also needs the icons and the codex (.node.json) files beside the nodes.
function copyIcons() {
	return src(['icons/*.svg', 'nodes/**/*.svg', 'credentials/**/*.svg'], { base: '.', encoding: false }).pipe(dest('dist'));
}

function copyCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

exports.build = parallel(copyIcons, copyCodex);
exports.default = exports.build;
