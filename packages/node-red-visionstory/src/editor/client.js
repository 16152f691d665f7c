/* Runs in the Node-RED editor (browser). Builds an action node's definition from its spec (put in
   by the build: defaults with their validators, operations, outputs, fields), shows each property only
   for the operations that use it, draws the outputs the Failure output setting asks for (rewiring
   Check Status's still-rendering output when it moves), fills the pickers from the account through the
   config node's admin endpoint, and checks values with the runtime's own check (fieldProblem, from
   src/field.ts) and outputs rule (portsOf, from src/spec.ts). */
window.VisionStoryEditor = window.VisionStoryEditor || {
	/*SHARED_SOURCE*/
	specs: {},
	/* Whether a node has the failure output: the setting, or a node saved by 1.0.0 (no setting) keeps it. */
	hasFailurePort: function (node) {
		var setting = node.failureOutput;
		return setting === undefined || setting === null || setting === '' || setting === true;
	},
	actionNode: function (type) {
		var editor = this;
		var spec = this.specs[type];
		var outputsOf = function (operation, failureOutput) {
			return editor.portsOf({ outputs: spec.outputs[operation] }, failureOutput);
		};
		return {
			category: spec.category,
			color: spec.color,
			defaults: spec.defaults,
			inputs: 1,
			outputs: spec.defaults.outputs.value,
			icon: spec.icon,
			paletteLabel: spec.label,
			label: function () {
				return this.name || spec.label + ': ' + (spec.operations[this.operation] || this.operation);
			},
			inputLabels: function () {
				return this._(type + '.inputLabel');
			},
			outputLabels: function (index) {
				return outputsOf(this.operation, editor.hasFailurePort(this))[index] || '';
			},
			onadd: function () {
				// From the palette the setting is its default, off: no failure output. Node-RED calls this for
				// imported nodes too; one saved by 1.0.0 has no setting and keeps its outputs as they are.
				if (this.failureOutput === false) this.outputs = outputsOf(this.operation, false).length;
			},
			oneditprepare: function () {
				var node = this;
				if (
					node.failureOutput === undefined ||
					node.failureOutput === null ||
					node.failureOutput === ''
				) {
					// Saved by 1.0.0: on when something is wired to its failure output, as the runtime reads it.
					var wired = RED.nodes.filterLinks({ source: node, sourcePort: 1 }).length > 0;
					$('#node-input-failureOutput').prop('checked', wired);
				}
				editor.prepare(node, spec.fields);
			},
			oneditsave: function () {
				// Old outputs to new, by name (the first is always the first): Node-RED moves the wires.
				var before = outputsOf(this.operation, editor.hasFailurePort(this));
				var after = outputsOf(
					$('#node-input-operation').val(),
					$('#node-input-failureOutput').prop('checked'),
				);
				var map = {};
				before.forEach(function (name, index) {
					var moved = index === 0 ? 0 : after.indexOf(name);
					map[index] = moved;
				});
				after.forEach(function (name, index) {
					if (index !== 0 && before.indexOf(name) === -1) map['new-' + index] = index;
				});
				$('#node-input-outputs').val(JSON.stringify(map));
			},
		};
	},
	prepare: function (node, fields) {
		$('.vs-msg-property').each(function () {
			if (!$(this).val()) $(this).val('payload');
			$(this).typedInput({ types: ['msg'] });
		});
		var byName = {};
		fields.forEach(function (f) {
			byName[f.name] = f;
		});
		function value(name) {
			var input = $('#node-input-' + name);
			return input.attr('type') === 'checkbox' ? input.prop('checked') : input.val();
		}
		function visible(name, seen) {
			var f = byName[name];
			if (!f) return true;
			if (f.ops.indexOf($('#node-input-operation').val()) === -1) return false;
			if (!f.showIf) return true;
			if ((seen || []).indexOf(name) !== -1) return false;
			if (!visible(f.showIf.field, (seen || []).concat(name))) return false;
			return f.showIf.values.indexOf(value(f.showIf.field)) !== -1;
		}
		function refresh() {
			fields.forEach(function (f) {
				$('#vs-row-' + f.name).toggle(visible(f.name));
			});
		}
		$('#node-input-operation').on('change', refresh);
		fields.forEach(function (f) {
			$('#node-input-' + f.name).on('change', refresh);
		});
		$('.vs-load').on('click', function (event) {
			event.preventDefault();
			var button = $(this);
			var config = $('#node-input-config').val();
			var list = $('#' + button.data('target'));
			var note = $('#' + button.data('note'));
			if (!config || config === '_ADD_') {
				note.text(node._('visionstory.editor.chooseConfig'));
				return;
			}
			note.text(node._('visionstory.editor.loading'));
			$.getJSON('visionstory/' + encodeURIComponent(config) + '/' + button.data('list'))
				.done(function (options) {
					list.empty();
					options.forEach(function (o) {
						$('<option>').attr('value', o.value).text(o.label).appendTo(list);
					});
					note.text(node._('visionstory.editor.found', { count: options.length }));
				})
				.fail(function (xhr) {
					var body = xhr.responseJSON || {};
					note.text(body.message || node._('visionstory.editor.listFailed'));
				});
		});
		refresh();
	},
};
