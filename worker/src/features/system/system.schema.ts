export interface VersionDto {
  version: string;
  commit: string;
  builtAt: string;
  target: 'workers' | 'node';
}
