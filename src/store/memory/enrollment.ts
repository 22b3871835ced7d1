import type { EnrollmentRecord, EnrollmentRepo } from '../enrollment.js';

const initial: EnrollmentRecord = {
  rid: 'ri.enrollment..enrollment.default',
  name: 'Default Enrollment',
  createdTime: new Date(0).toISOString(),
};

export class MemoryEnrollment implements EnrollmentRepo {
  private current = initial;

  async get(): Promise<EnrollmentRecord> {
    return this.current;
  }

  async set(enrollment: EnrollmentRecord): Promise<void> {
    this.current = enrollment;
  }

  clear(): void {
    this.current = initial;
  }
}
