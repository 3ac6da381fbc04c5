import { defineBuild } from '../../tsup.shared.ts';

export default defineBuild();
