// The single enrollment of this platform.

export interface EnrollmentRecord {
  rid: string;
  name: string;
  createdTime: string;
}

export interface EnrollmentRepo {
  get(): Promise<EnrollmentRecord>;
  set(enrollment: EnrollmentRecord): Promise<void>;
}
