/**
 * The walk a newcomer makes through one operation, following go-to-definition from where the host
 * enters the package: every function of the package the operation ran and a reader reaches that way
 * (each call and each function passed on by name, as the TypeScript checker resolves it, imports
 * followed), with the callees of each function on the path included. Where go-to-definition lands on
 * an interface (the router's operation, the HTTP channel a host hands down), the reader opens it and
 * then the functions of that name that ran. The figures: the files opened and their lines, and the
 * file-to-file steps, so a test can check the path reads top to bottom (no return to a file already
 * left) and never calls back up into an adapter except through what an adapter handed down.
 *
 * Which functions ran comes from V8's precise coverage of the run (function names per file).
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { relative, resolve } from 'node:path';

import ts from 'typescript';

export const REPO = resolve(__dirname, '../..');

/**
 * Package functions that ran, by absolute file, by the name V8 gives them: for each name, whether the
 * first, second… function of that name in the file (in source order) ran. Functions of one name in one
 * file (the `run` of each operation of a Node-RED node) are told apart by their order.
 */
export type Ran = Map<string, Map<string, boolean[]>>;

/** Runs `run` under V8's precise coverage and returns what ran in files `inScope` accepts. */
export async function whatRan<T>(
	run: () => Promise<T>,
	inScope: (file: string) => boolean,
): Promise<{ result: T; ran: Ran }> {
	const session = new Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((done, fail) =>
			session.post(method, params, (error, answer) => (error ? fail(error) : done(answer))),
		);
	await post('Profiler.enable');
	await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
	await post('Profiler.takePreciseCoverage');
	const result = await run();
	const { result: scripts } = (await post('Profiler.takePreciseCoverage')) as {
		result: Array<{
			url: string;
			functions: Array<{
				functionName: string;
				ranges: Array<{ startOffset: number; count: number }>;
			}>;
		}>;
	};
	await post('Profiler.stopPreciseCoverage');
	session.disconnect();
	const ran: Ran = new Map();
	for (const script of scripts) {
		const file = script.url.replace(/^file:\/\//, '');
		if (!file.endsWith('.ts') || !inScope(file)) continue;
		const names = new Map<string, boolean[]>();
		const functions = script.functions
			.filter((f) => f.functionName && f.ranges.length > 0)
			.sort((a, b) => a.ranges[0].startOffset - b.ranges[0].startOffset);
		for (const f of functions)
			names.set(f.functionName, [...(names.get(f.functionName) ?? []), f.ranges[0].count > 0]);
		if ([...names.values()].some((runs) => runs.includes(true))) ran.set(file, names);
	}
	return { result, ran };
}

/** How one file is placed: the layer it belongs to (outer first) for "no call back up". */
export interface WalkScope {
	/** Files of the package a reader reads (the rest, n8n or Node-RED or libraries, is the host). */
	inScope(file: string): boolean;
	/** Outermost 0; a call from a file into one with a smaller number is a call back up. */
	layerOf(file: string): number;
	/**
	 * Steps `a → b` (repository-relative) into what a host handed down, where the path ends: the host's
	 * HTTP channel, the stream a request body reads. Not a call back up, and not a return.
	 */
	handedDown?: ReadonlySet<string>;
}

export interface WalkFigures {
	/** Files opened, repository-relative, in the order a depth-first reader opens them. */
	files: string[];
	/** Lines in those files. */
	lines: number;
	/** Functions read, `file:name`. */
	functions: string[];
	/** File-to-file steps `a → b` (each once). */
	steps: string[];
	/** Steps into an outer layer (`a → b`). */
	backUp: string[];
	/** Files a reader returns to after leaving them: a step back into a file from one it led to. */
	returns: string[];
	/** Interfaces go-to-definition landed on (`file:Owner.member`). */
	interfaces: string[];
}

type Fn = ts.FunctionLikeDeclaration | ts.ClassDeclaration;

/** The name V8 gives a function declared at `node`, for matching against what ran. */
function v8Name(node: ts.Node): string | undefined {
	if (ts.isConstructorDeclaration(node)) return (node.parent as ts.ClassDeclaration).name?.text;
	if (ts.isClassDeclaration(node)) return node.name?.text;
	if (
		ts.isFunctionDeclaration(node) ||
		ts.isMethodDeclaration(node) ||
		ts.isGetAccessorDeclaration(node) ||
		ts.isSetAccessorDeclaration(node)
	)
		return node.name?.getText().replace(/^['"]|['"]$/g, '');
	if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
		const parent = node.parent;
		if (
			(ts.isVariableDeclaration(parent) ||
				ts.isPropertyAssignment(parent) ||
				ts.isPropertyDeclaration(parent)) &&
			ts.isIdentifier(parent.name)
		)
			return parent.name.text;
	}
	return undefined;
}

/** A declaration go-to-definition lands on, as the function (or class) a reader reads there. */
function asFunction(declaration: ts.Declaration): Fn | 'interface' | undefined {
	if (
		ts.isFunctionDeclaration(declaration) ||
		ts.isMethodDeclaration(declaration) ||
		ts.isConstructorDeclaration(declaration) ||
		ts.isGetAccessorDeclaration(declaration) ||
		ts.isSetAccessorDeclaration(declaration) ||
		ts.isArrowFunction(declaration) ||
		ts.isFunctionExpression(declaration)
	)
		return declaration.body ? declaration : 'interface';
	if (ts.isClassDeclaration(declaration)) return declaration;
	if (ts.isMethodSignature(declaration)) return 'interface';
	// A property of function type (`send: (…) => …`); other properties are data, not code.
	if (
		ts.isPropertySignature(declaration) &&
		declaration.type &&
		(ts.isFunctionTypeNode(declaration.type) || ts.isTypeReferenceNode(declaration.type))
	)
		return 'interface';
	if (
		(ts.isVariableDeclaration(declaration) ||
			ts.isPropertyAssignment(declaration) ||
			ts.isPropertyDeclaration(declaration)) &&
		declaration.initializer &&
		(ts.isArrowFunction(declaration.initializer) ||
			ts.isFunctionExpression(declaration.initializer))
	)
		return declaration.initializer;
	return undefined;
}

/** The member name an interface landing stands for. */
function memberName(declaration: ts.Declaration): string | undefined {
	const name = (declaration as ts.NamedDeclaration).name;
	return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
}

function ownerName(declaration: ts.Node): string {
	const parent = declaration.parent;
	return (ts.isInterfaceDeclaration(parent) || ts.isClassDeclaration(parent)) && parent.name
		? parent.name.text
		: ts.isTypeLiteralNode(parent) && ts.isTypeAliasDeclaration(parent.parent)
			? parent.parent.name.text
			: '?';
}

/**
 * The reader's walk from `start` (a function, or a class member holding one, named `name` in `file`),
 * through every package function the run executed that go-to-definition reaches.
 */
export function readerWalk(
	start: { file: string; name: string },
	ran: Ran,
	scope: WalkScope,
): WalkFigures {
	const program = ts.createProgram([start.file], {
		strict: true,
		target: ts.ScriptTarget.ES2022,
		module: ts.ModuleKind.CommonJS,
		moduleResolution: ts.ModuleResolutionKind.Node10,
		esModuleInterop: true,
		resolveJsonModule: true,
		skipLibCheck: true,
		noEmit: true,
	});
	const checker = program.getTypeChecker();
	/** Per file, each function's place among those of its name (in source order, as V8 lists them), and how many have it. */
	const placesIn = new Map<
		string,
		{ of: Map<ts.Node, { name: string; index: number }>; count: Map<string, number> }
	>();
	const placeOf = (node: ts.Node) => {
		const source = node.getSourceFile();
		let places = placesIn.get(source.fileName);
		if (!places) {
			places = { of: new Map(), count: new Map() };
			const { of, count } = places;
			const visit = (child: ts.Node) => {
				// To V8 a class is one function named after it, its constructor; a function without a body is none.
				const counted =
					ts.isClassDeclaration(child) ||
					((ts.isFunctionDeclaration(child) ||
						ts.isMethodDeclaration(child) ||
						ts.isGetAccessorDeclaration(child) ||
						ts.isSetAccessorDeclaration(child) ||
						ts.isArrowFunction(child) ||
						ts.isFunctionExpression(child)) &&
						child.body !== undefined);
				const name = counted ? v8Name(child) : undefined;
				if (name !== undefined) {
					const index = count.get(name) ?? 0;
					count.set(name, index + 1);
					of.set(child, { name, index });
				}
				ts.forEachChild(child, visit);
			};
			visit(source);
			placesIn.set(source.fileName, places);
		}
		const place = places.of.get(ts.isConstructorDeclaration(node) ? node.parent : node);
		return place && { ...place, count: places.count.get(place.name) ?? 0 };
	};
	const ranHere = (node: ts.Node) => {
		const place = placeOf(node);
		const runs = place && ran.get(node.getSourceFile().fileName)?.get(place.name);
		if (!place || !runs) return false;
		// Where V8 and the source count a name's functions alike, the one at this place; else any of them.
		return runs.length === place.count ? runs[place.index] : runs.includes(true);
	};
	const landingsOf = (node: ts.Node): ts.Declaration[] => {
		let symbol = checker.getSymbolAtLocation(node);
		if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
		return symbol?.declarations ?? [];
	};
	/**
	 * Classes and object literals of the package, by the interfaces they are declared as (`implements`,
	 * `extends`, a declared type): where "go to implementation" sends a reader from an interface.
	 */
	const holders = new Map<ts.Symbol, Array<ts.ClassDeclaration | ts.ObjectLiteralExpression>>();
	const typeNames = (type: ts.Type | undefined) =>
		[type?.getSymbol(), type?.aliasSymbol].filter((s): s is ts.Symbol => s !== undefined);
	for (const source of program.getSourceFiles()) {
		if (!scope.inScope(source.fileName) || source.isDeclarationFile) continue;
		const visit = (node: ts.Node) => {
			let owners: ts.Symbol[] = [];
			if (ts.isObjectLiteralExpression(node)) owners = typeNames(checker.getContextualType(node));
			if (ts.isClassDeclaration(node))
				owners = (node.heritageClauses ?? []).flatMap((clause) =>
					clause.types.flatMap((type) => typeNames(checker.getTypeAtLocation(type.expression))),
				);
			for (const owner of owners)
				holders.set(owner, [
					...(holders.get(owner) ?? []),
					node as ts.ClassDeclaration | ts.ObjectLiteralExpression,
				]);
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	/** The function a class member or object property holds (a method, an arrow, a function named). */
	const memberFunction = (
		holder: ts.ClassDeclaration | ts.ObjectLiteralExpression,
		name: string,
	): Fn | undefined => {
		const members: readonly ts.Node[] = ts.isClassDeclaration(holder)
			? holder.members
			: holder.properties;
		for (const member of members) {
			if (memberName(member as ts.Declaration) !== name) continue;
			const direct = asFunction(member as ts.Declaration);
			if (direct && direct !== 'interface') return direct;
			const declarations = ts.isShorthandPropertyAssignment(member)
				? (checker.getShorthandAssignmentValueSymbol(member)?.declarations ?? [])
				: ts.isPropertyAssignment(member)
					? landingsOf(member.initializer)
					: [];
			for (const declaration of declarations) {
				const fn = asFunction(declaration);
				if (fn && fn !== 'interface') return fn;
			}
		}
		return undefined;
	};
	/** The interface, class or type alias a member landing belongs to. */
	const ownerSymbol = (member: ts.Declaration): ts.Symbol | undefined => {
		const owner = member.parent;
		if ((ts.isInterfaceDeclaration(owner) || ts.isClassDeclaration(owner)) && owner.name)
			return checker.getSymbolAtLocation(owner.name);
		if (ts.isTypeLiteralNode(owner) && ts.isTypeAliasDeclaration(owner.parent))
			return checker.getSymbolAtLocation(owner.parent.name);
		return undefined;
	};

	const files: string[] = [];
	const functions: string[] = [];
	const steps = new Set<string>();
	const interfaces = new Set<string>();
	const seen = new Set<ts.Node>();
	const open = (file: string) => {
		if (!files.includes(file)) files.push(file);
	};
	const rel = (file: string) => relative(REPO, file);

	/** Reads one function: opens its file, then follows every call and named function in it. */
	const read = (fn: Fn, from: string | undefined): void => {
		const file = fn.getSourceFile().fileName;
		if (from !== undefined && from !== file) steps.add(`${rel(from)} → ${rel(file)}`);
		if (seen.has(fn)) return;
		seen.add(fn);
		open(rel(file));
		functions.push(`${rel(file)}:${v8Name(fn) ?? '(anonymous)'}`);
		const follow = (target: ts.Node) => {
			for (const declaration of landingsOf(target)) {
				const landing = asFunction(declaration);
				const where = declaration.getSourceFile().fileName;
				if (!landing || !scope.inScope(where)) continue;
				if (landing === 'interface') {
					const member = memberName(declaration);
					if (!member) continue;
					const owner = ownerSymbol(declaration);
					const running = (owner ? (holders.get(owner) ?? []) : [])
						.map((holder) => memberFunction(holder, member))
						.filter((fn): fn is Fn => fn !== undefined && ranHere(fn));
					if (running.length === 0) continue;
					interfaces.add(`${rel(where)}:${ownerName(declaration)}.${member}`);
					open(rel(where));
					if (where !== file) steps.add(`${rel(file)} → ${rel(where)}`);
					for (const implementation of running) read(implementation, file);
					continue;
				}
				if (ts.isClassDeclaration(landing)) {
					// `new X()`: its constructor, when it has one and it ran.
					const ctor = landing.members.find(ts.isConstructorDeclaration);
					if (ctor?.body && ranHere(landing)) read(ctor, file);
					continue;
				}
				if (ranHere(landing)) read(landing, file);
			}
		};
		const visit = (node: ts.Node): void => {
			if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
				const callee = node.expression;
				follow(ts.isPropertyAccessExpression(callee) ? callee.name : callee);
			} else if (
				(ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) &&
				!(ts.isCallExpression(node.parent) && node.parent.expression === node) &&
				!(ts.isNewExpression(node.parent) && node.parent.expression === node) &&
				!ts.isPropertyAccessExpression(node.parent)
			) {
				// A function passed on by name (`items.map(toItem)`, `execute = router`) runs too.
				follow(ts.isPropertyAccessExpression(node) ? node.name : node);
			}
			ts.forEachChild(node, visit);
		};
		if (ts.isClassDeclaration(fn)) return;
		if (fn.body) visit(fn.body);
	};

	const startSource = program.getSourceFile(start.file);
	if (!startSource) throw new Error(`not in the program: ${start.file}`);
	let first: ts.Node | undefined;
	const find = (node: ts.Node): void => {
		if (first) return;
		const named = (node as ts.NamedDeclaration).name;
		if (named && ts.isIdentifier(named) && named.text === start.name) {
			if (ts.isPropertyDeclaration(node) && node.initializer) first = node.initializer;
			else if (asFunction(node as ts.Declaration)) first = node;
		}
		ts.forEachChild(node, find);
	};
	find(startSource);
	if (!first) throw new Error(`no ${start.name} in ${start.file}`);
	open(rel(start.file));
	const startFn = asFunction(first as ts.Declaration);
	if (startFn && startFn !== 'interface') read(startFn, undefined);
	else
		for (const declaration of landingsOf(first)) {
			const fn = asFunction(declaration);
			if (fn && fn !== 'interface') read(fn, start.file);
		}

	const lines = files.reduce(
		(n, f) => n + readFileSync(resolve(REPO, f), 'utf8').trimEnd().split('\n').length,
		0,
	);
	const stepList = [...steps].sort();
	const edge = (s: string) => s.split(' → ') as [string, string];
	const handedDown = scope.handedDown ?? new Set<string>();
	const backUp = stepList.filter((s) => {
		if (handedDown.has(s)) return false;
		const [a, b] = edge(s);
		return scope.layerOf(resolve(REPO, b)) < scope.layerOf(resolve(REPO, a));
	});
	// A return: a file reachable from a file it leads to (a cycle among files).
	const next = new Map<string, string[]>();
	for (const s of stepList) {
		if (handedDown.has(s)) continue;
		const [a, b] = edge(s);
		next.set(a, [...(next.get(a) ?? []), b]);
	}
	const reaches = (from: string, to: string) => {
		const stack = [from];
		const visited = new Set<string>();
		while (stack.length) {
			const f = stack.pop()!;
			if (f === to) return true;
			if (visited.has(f)) continue;
			visited.add(f);
			stack.push(...(next.get(f) ?? []));
		}
		return false;
	};
	const returns = stepList.filter((s) => {
		if (handedDown.has(s)) return false;
		const [a, b] = edge(s);
		return reaches(b, a);
	});
	return {
		files,
		lines,
		functions,
		steps: stepList,
		backUp,
		returns,
		interfaces: [...interfaces].sort(),
	};
}

/** The figures in the words docs/architecture.md uses. */
export function describeWalk(name: string, walk: WalkFigures): string {
	return [
		`${name}: a reader following go-to-definition opens ${walk.files.length} files, ${walk.lines} lines in all, and reads ${walk.functions.length} functions`,
		`files, in the order opened: ${walk.files.join(', ')}`,
		`interfaces landed on: ${walk.interfaces.join(', ') || 'none'}`,
		`returns to a file already left: ${walk.returns.length}${walk.returns.length ? `: ${walk.returns.join('; ')}` : ''}`,
		`calls back up into an outer layer: ${walk.backUp.length}${walk.backUp.length ? `: ${walk.backUp.join('; ')}` : ''}`,
	].join('\n');
}
