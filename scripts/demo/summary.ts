import type { StepReport } from './steps';

export interface ExampleReport {
	example: string;
	title: string;
	status: 'success' | 'failed';
	seconds: number;
	steps: StepReport[];
	error?: string;
}

export interface DemoSummary {
	service: string;
	n8n: string;
	examples: ExampleReport[];
	/** The service's own account of what was charged, when it is the emulator. */
	ledger?: { charged: number; refunded: number; balance: number };
}

export function renderSummary(summary: DemoSummary): string {
	const lines = [
		`# VisionStory demo`,
		'',
		`Real n8n ${summary.n8n} with n8n-nodes-visionstory, against ${summary.service}.`,
		'',
	];
	let total = 0;
	for (const example of summary.examples) {
		lines.push(
			`## ${example.title}`,
			'',
			`\`examples/${example.example}.json\`: ${example.status} in ${example.seconds.toFixed(1)} s`,
			'',
		);
		if (example.error) lines.push(`Error: ${example.error}`, '');
		if (example.steps.length) {
			lines.push('| step | what it did | credits | files |', '|---|---|---|---|');
			for (const step of example.steps) {
				total += step.credits;
				lines.push(
					`| ${step.node} | ${step.did.replace(/\|/g, '\\|')} | ${step.credits || ''} | ${step.files.map((f) => `\`${f}\``).join(' ')} |`,
				);
			}
			lines.push('');
		}
	}
	lines.push(`**Credits spent, from the steps' outputs: ${total}**`);
	if (summary.ledger) {
		const { charged, refunded, balance } = summary.ledger;
		lines.push(
			'',
			`The emulator's ledger: ${charged} charged, ${refunded} refunded (net ${charged - refunded}), balance ${balance}.`,
		);
	}
	return `${lines.join('\n')}\n`;
}
