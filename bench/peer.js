// Times bridge-scorer (npm) on the boards bench/peer.py wrote, for bench/peer.py.
//
// Usage: node bench/peer.js PACKAGE_DIR BOARDS.json
// Prints one JSON object: the best seconds for each method and board size, and the
// figures of the first board of each size, so that peer.py can check both programs
// compute the same thing.
'use strict';

const fs = require('fs');
const path = require('path');

const scorer = require(path.join(process.argv[2], 'node_modules', 'bridge-scorer'));
const input = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));

// bridge-scorer reads a game as a declarer's score; an NS declarer makes it the NS score.
function games(scores) {
    return scores.map((score) => ({ score: score, contract: { declaror: 'N' } }));
}

const METHODS = {
    matchpoints: (board) => scorer.matchpoints(board),
    cross_imps: (board) => scorer.crossImps(board),
    butler: (board) => scorer.butler(board), // returns the datum
};

function bestSeconds(method, boards, repeats) {
    let best = Infinity;
    for (let run = 0; run < repeats; ++run) {
        const started = process.hrtime.bigint();
        for (const board of boards) {
            method(board);
        }
        best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e9);
    }
    return best;
}

function figures(name, board) {
    if (name === 'matchpoints') {
        return board.map((game) => game.matchpointsNS.value);
    }
    return board.map((game) => game.impsNS.value);
}

const timings = {};
const samples = {};
for (const group of input.groups) {
    for (const name of group.methods) {
        const boards = group.boards.map(games);
        METHODS[name](boards[0]); // warm the JIT before timing
        timings[`${name}/${group.size}`] = bestSeconds(METHODS[name], boards, group.repeats);
        const returned = METHODS[name](boards[0]); // the Butler datum
        samples[`${name}/${group.size}`] = { points: figures(name, boards[0]), datum: returned };
    }
}
process.stdout.write(JSON.stringify({ timings: timings, samples: samples }));
