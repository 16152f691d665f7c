/** The part of node-red-node-test-helper the suite uses (the package ships no types). */
declare module 'node-red-node-test-helper' {
	interface Helper {
		init(runtimePath: string, settings?: Record<string, unknown>): void;
		settings(settings: Record<string, unknown>): Record<string, unknown>;
		load(nodes: unknown, flow: unknown[], credentials?: Record<string, unknown>): Promise<void>;
		unload(): Promise<void>;
		/** A deploy of `flow` into the running runtime (`full` restarts every node, keeping their context). */
		setFlows(
			flow: unknown[],
			type?: 'full' | 'flows' | 'nodes',
			credentials?: Record<string, unknown>,
		): Promise<void>;
		getNode(id: string): any;
		startServer(): Promise<void>;
		stopServer(): Promise<void>;
		request(): any;
	}
	const helper: Helper;
	export default helper;
}
