/* Runs in the Node-RED editor (browser). Shows each property only for the operations that use it,
   fills the pickers from the account through the config node's admin endpoint, and checks values
   with the runtime's own check (fieldProblem, put in by the build from src/field.ts). */
window.VisionStoryEditor = window.VisionStoryEditor || {
	/*FIELD_PROBLEM*/
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
				note.text('Choose a VisionStory config first.');
				return;
			}
			note.text('Loading…');
			$.getJSON('visionstory/' + encodeURIComponent(config) + '/' + button.data('list'))
				.done(function (options) {
					list.empty();
					options.forEach(function (o) {
						$('<option>').attr('value', o.value).text(o.label).appendTo(list);
					});
					note.text(options.length + ' found: type to filter, or pick from the list.');
				})
				.fail(function (xhr) {
					var body = xhr.responseJSON || {};
					note.text(body.message || 'Could not load the list (deploy the config node first).');
				});
		});
		refresh();
	},
};
