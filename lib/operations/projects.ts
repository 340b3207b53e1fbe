import "server-only";
import type { ProjectJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { deleteProject, insertProject, listProjects, renameProject } from "@/lib/db/projects";

export const projects = {
  list: (userId: string): Promise<ProjectJson[]> => withUser(userId, (tx) => listProjects(tx, userId)),
  create: (userId: string, name: string) => withUser(userId, (tx) => insertProject(tx, userId, name)),
  rename: (userId: string, id: string, name: string) => withUser(userId, (tx) => renameProject(tx, userId, id, name)),
  remove: (userId: string, id: string) => withUser(userId, (tx) => deleteProject(tx, userId, id)),
};
