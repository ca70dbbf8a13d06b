import { takeConformanceViolations } from './openapi-conformance';

// Every test file: the responses its tests received must be as the OpenAPI document says.
afterAll(() => {
  const violations = takeConformanceViolations();
  if (violations.length > 0)
    throw new Error(`responses that do not match the OpenAPI document:\n  ${violations.join('\n  ')}`);
});
