"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.fold = fold;
function fold(decider, events) {
    return events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
}
//# sourceMappingURL=decider.js.map